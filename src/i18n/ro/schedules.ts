/** Romanian, scheduled reports (`/fleet programează`). */
import type { schedules as en } from "../en/schedules.js";
import type { SameParameters, Translation } from "../section.js";

export const schedules = {
  time: ({ given }) =>
    `Spune când rulează, la sfârșit: \`la 07:30\` (ora în format de 24 de ore)${given ? `, nu ${given}` : ""}.`,
  recurrence: ({ given }) =>
    `Cât de des? Înainte de oră: \`în fiecare zi\`, \`în zilele lucrătoare\`, \`în fiecare luni\` sau \`în fiecare lună pe 1\`${given ? ` (nu ${given})` : ""}.`,
  day: ({ given }) =>
    `${given} nu e o zi a lunii: de la 1 la 31 (într-o lună mai scurtă rulează în ultima ei zi).`,
  report: () =>
    "Ce raport? Scrie întâi comanda raportului, cum ai scrie-o după `/fleet`: `combustibil toate ieri`.",
  notAReport: ({ given }) =>
    `${given} nu e un raport: se pot programa doar rapoarte (combustibil, opriri, traseu, alimentări, temperaturi, unde, vehicule), cu vehiculele lor.`,
  id: ({ given }) =>
    `Scrie codul programării, cum îl arată \`/fleet programări\`${given ? `, nu ${given}` : ""}.`,
} satisfies Translation<typeof en>;

true satisfies SameParameters<typeof en, typeof schedules>;
