/**
 * The Romanian glossary (issue 33): one word per concept, decided once and used everywhere in the
 * Romanian catalogue. `rejected` are the words it replaced, as a reader would notice them;
 * test/i18n/romanianGlossary.test.ts fails when one appears in a Romanian message (comments may
 * name them). Informal second person throughout; the bot speaks of itself as "fleetbot" ("a lui
 * fleetbot" in the genitive).
 */
export interface GlossaryEntry {
  /** What it names, in English. */
  concept: string;
  /** The Romanian word or phrase used. */
  use: string;
  /** Words it replaced (lower case; matched whole, case and diacritics as written). */
  rejected: readonly string[];
}

export const GLOSSARY: readonly GlossaryEntry[] = [
  {
    concept: "the tracking service (TrackGPS)",
    use: "platforma GPS (pe platforma GPS, al platformei GPS)",
    rejected: [
      "serviciul de flotă",
      "serviciului de flotă",
      "serviciul de monitorizare",
      "serviciului de monitorizare",
      "serviciul",
      "serviciului",
    ],
  },
  {
    concept: "the fleet account (an account of the tracking service)",
    use: "contul platformei GPS (un cont pe platforma GPS, contul tău pe platforma GPS)",
    rejected: [
      "cont de flotă",
      "contul de flotă",
      "contului de flotă",
      "conturile lor de flotă",
      "sesiunea de flotă",
    ],
  },
  {
    concept: "the last transmission to ANAF",
    use: "ultima transmisie către ANAF",
    rejected: ["ultima transmitere", "transmitere către platformă"],
  },
  {
    concept: "the last GPS fix",
    use: "ultima poziție GPS",
    rejected: ["ultima transmisie gps", "ultimul gps"],
  },
  {
    concept: "ending a transport (the status is Finalizat)",
    use: "finalizează, finalizare, finalizat",
    rejected: ["termină", "terminare", "terminat", "terminate", "termini", "încheie transportul", "închei"],
  },
  {
    concept: "linking a fleet account",
    use: "asociază, dezasociază, asociat",
    rejected: ["leagă", "dezleagă", "legat de tine", "conectează"],
  },
  {
    concept: "the Slack workspace (Slack has no Romanian interface)",
    use: "workspace (al workspace-ului)",
    rejected: ["spațiu de lucru", "spațiul de lucru", "spațiului de lucru"],
  },
  { concept: "a request in the queue", use: "cererea", rejected: ["sarcina"] },
  { concept: "a suggestion for a typo", use: "Ai vrut să scrii …?", rejected: ["te-ai gândit la"] },
  { concept: "what someone typed", use: "ai scris", rejected: ["ai dat"] },
  { concept: "a Slack thread", use: "thread (în thread)", rejected: ["în fir"] },
  { concept: "the previous page", use: "◀ Anterioara", rejected: ["◀ înapoi"] },
  { concept: "English, named in Romanian", use: "engleză", rejected: ["(english)"] },
  { concept: "what Slack did not pass on", use: "Slack nu ne-a transmis", rejected: ["slack nu a spus"] },
  { concept: "the account in use", use: "Lucrezi cu contul", rejected: ["acționezi ca"] },
  { concept: "pointing at one thing", use: "indică, alege", rejected: ["numește"] },
  {
    concept: "help from people",
    use: "asistență",
    rejected: ["suportul", "contactează suportul", "pentru suport"],
  },
  { concept: "a run once queued", use: "va rula o singură dată", rejected: ["rulează o singură dată"] },
  {
    concept: "one at a time",
    use: "câte un singur …",
    rejected: ["un singur vehicul odată", "un singur transport odată"],
  },
  // Added on the end-to-end reading of the whole catalogue (issue 33).
  { concept: "pausing a transport", use: "pune în pauză, pus în pauză, în pauză", rejected: ["pe pauză"] },
  {
    concept: "editing a transport (the command is `editează`)",
    use: "editează, editat",
    rejected: ["modifică un transport"],
  },
  { concept: "the dashes in a UIT", use: "cratimele", rejected: ["liniuțele", "liniuțe"] },
  {
    concept: "the minimum stop duration (`min=`)",
    use: "durata minimă a opririi",
    rejected: ["cea mai scurtă oprire", "durata minimă a unei opriri"],
  },
  { concept: "the refresh button", use: "Actualizează", rejected: ["reîmprospătează"] },
  {
    concept: "the carrier's tax code on a transport",
    use: "CIF/CUI transportator (sau cod TVA UE)",
    rejected: [
      "cod tva transportator",
      "codul de tva al transportatorului",
      "codul de tva al unui transport",
    ],
  },
  { concept: "a vehicle's private mode", use: "mod privat (în mod privat)", rejected: ["regim privat"] },
  {
    concept: "whoever runs fleetbot (a dispatcher is an «operator» in Romanian companies)",
    use: "cine administrează fleetbot",
    rejected: ["operatorul"],
  },
  {
    concept: "the tracking device in a vehicle",
    use: "echipamentul GPS",
    rejected: ["trackerul", "tracker"],
  },
  {
    concept: "what a command takes",
    use: "acceptă",
    rejected: ["primește doar", "primește o singură", "nu primește o perioadă"],
  },
  {
    concept: "telling someone what to type",
    use: "scrie",
    rejected: ["dă câte", "dă centrul", "dă un nume"],
  },
  {
    concept: "fleetbot speaking of itself",
    use: "fleetbot, la persoana a treia (de ex. „fleetbot reîncearcă”)",
    rejected: [
      "caut",
      "verific",
      "răspund acum",
      "am adăugat",
      "am șters",
      "pe care îl pot folosi",
      "ce să fac",
    ],
  },
];
