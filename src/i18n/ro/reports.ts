/** Romanian, vehicle reports (/fleet unde, traseu, opriri, combustibil, alimentări, temperaturi). */
import type { VehicleReportName } from "../../reports/catalogue.js";
import type { reports as en } from "../en/reports.js";
import type { SameParameters, Translation } from "../section.js";

const TITLES: Readonly<Record<VehicleReportName, string>> = {
  vehicles: "Lista vehiculelor",
  where: "Ultima poziție",
  route: "Traseu",
  stops: "Raport de opriri",
  fuel: "Raport de combustibil",
  refills: "Raport de alimentări",
  temps: "Raport de temperaturi",
};

export const reports = {
  title: (report) => TITLES[report],
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof reports>;
