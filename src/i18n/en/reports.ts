/** English, vehicle reports (/fleet where, route, stops, fuel, refills, temps). */
import type { VehicleReportName } from "../../reports/catalogue.js";
import type { Section } from "../section.js";

const TITLES: Readonly<Record<VehicleReportName, string>> = {
  vehicles: "Vehicle list",
  where: "Last position",
  route: "Route",
  stops: "Stops report",
  fuel: "Fuel report",
  refills: "Refills report",
  temps: "Temperature report",
};

export const reports = {
  /** A report's name as a title: "Stops report". */
  title: (report: VehicleReportName) => TITLES[report],
} satisfies Section;
