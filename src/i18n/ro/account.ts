/** Romanian, the account commands: `/fleet limba` is the Romanian word of `/fleet language` (CONTRACT.md). */
import type { account as en } from "../en/account.js";
import type { Language } from "../language.js";
import type { LanguageSource } from "../resolve.js";
import type { SameParameters, Translation } from "../section.js";

/** A language named as the subject of a sentence ("Limba ta este româna"). */
const NAME: Readonly<Record<Language, string>> = { en: "engleza", ro: "româna" };

const SOURCES: Readonly<Record<LanguageSource, string>> = {
  user: "aleasă de tine",
  workspace: "cea implicită a acestui workspace: nu ți-ai ales una",
  slack: "după limba ta din Slack: nu ți-ai ales una",
  configured: "cea implicită a lui fleetbot: nu ți-ai ales una",
};

export const account = {
  languageCurrent: ({ language, source }) => `Limba ta este *${NAME[language]}* (${SOURCES[source]}).`,
  languageHowToChange: () =>
    "O schimbi cu `/fleet limba ro` (română) sau `/fleet limba en` (engleză); merge și `/fleet language ro`.",
  languageChosen: ({ language }) => `Limba ta este acum ${NAME[language]}.`,
  languageChosenDetail: () => "Pentru engleză: `/fleet limba en` (sau `/fleet language en`).",
  languageWorkspaceDefault: ({ language }) =>
    `Limba implicită a acestui workspace este acum ${NAME[language]}: o primesc toți cei de aici care nu și-au ales una.`,
  languageWorkspaceYours: ({ yours, source }) =>
    `A ta rămâne ${NAME[yours]}${source === "user" ? " (aleasă de tine)" : ""}.`,
  languageWorkspaceDetail: () =>
    "Oricine își poate alege în continuare limba cu `/fleet limba ro` sau `/fleet limba en`.",
  languageBySingle: ({ configured }) =>
    `Acest fleetbot servește un singur workspace: limba lui implicită o stabilește cine îl administrează (DEFAULT_LANGUAGE, acum ${NAME[configured]}).`,
  languageWorkspaceRefused: () =>
    "Doar cine a instalat fleetbot aici, sau un administrator ori proprietar al workspace-ului, poate stabili limba implicită a workspace-ului.",
  languageAdminUnknown: () =>
    "Slack nu ne-a transmis la timp dacă ești administrator al workspace-ului: încearcă din nou `/fleet limba workspace` peste câteva momente.",
  languageChooseYours: () => "Îți alegi limba cu `/fleet limba ro` sau `/fleet limba en`.",
  languageWorkspaceAskAdmin: () =>
    "Roagă un administrator sau proprietar al workspace-ului să o stabilească: reinstalarea cu Add to Slack nu dă drepturi. Îți alegi limba cu `/fleet limba ro` sau `/fleet limba en`.",
  languageOrgRefused: () =>
    "Aici fleetbot este instalat pentru toată organizația Enterprise Grid: doar un administrator sau proprietar al organizației poate stabili limba implicită a organizației (un administrator de workspace nu poate).",
  languageOrgAskAdmin: () =>
    "Roagă un administrator sau proprietar al organizației să o stabilească. Îți alegi limba cu `/fleet limba ro` sau `/fleet limba en`.",

  noAccount: () =>
    "Nu ți-ai asociat un cont pe platforma GPS, iar acest workspace nu are niciunul configurat.",
  linkYours: () => "Asociază-ți contul cu /fleet login.",
  notYours: () => "Mesajul acesta este al altcuiva.",

  linkingDisabled: () =>
    "Asocierea propriului cont pe platforma GPS nu este activată aici: cine administrează fleetbot nu a setat CREDENTIALS_KEY (cheia care criptează parolele salvate).",
  linkingDisabledMeanwhile: () => "Până atunci, comenzile tale rulează cu contul workspace-ului.",
  workspaceAccountByOperator: () =>
    "Acest fleetbot servește un singur workspace: contul lui pe platforma GPS îl stabilește cine îl administrează (FLEET_USERNAME și FLEET_PASSWORD).",
  workspaceAccountRefused: () =>
    "Doar cine a instalat fleetbot aici, sau un administrator ori proprietar al workspace-ului, poate stabili contul platformei GPS al workspace-ului.",
  workspaceAdminUnknown: () =>
    "Slack nu ne-a transmis la timp dacă ești administrator al workspace-ului: încearcă din nou `/fleet login workspace` peste câteva momente.",
  workspaceAccountAskAdmin: () =>
    "Roagă un administrator sau proprietar al workspace-ului să îl stabilească (reinstalarea cu Add to Slack nu dă drepturi) sau asociază-ți propriul cont pe platforma GPS cu /fleet login.",
  orgAccountRefused: () =>
    "Aici fleetbot este instalat pentru toată organizația Enterprise Grid: doar un administrator sau proprietar al organizației poate stabili contul platformei GPS al organizației (un administrator de workspace nu poate).",
  orgAdminUnknown: () =>
    "Slack nu ne-a transmis la timp dacă ești administrator al organizației: încearcă din nou peste câteva momente.",
  orgAccountAskAdmin: () =>
    "Roagă un administrator sau proprietar al organizației să îl stabilească sau asociază-ți propriul cont pe platforma GPS cu /fleet login.",
  externalUserRefused: () =>
    "Ești în acest canal din altă organizație, așa că fleetbot nu lucrează pentru tine aici: în acest workspace lucrează doar pentru membrii lui, cu conturile lor pe platforma GPS.",
  externalUserWhatToDo: () =>
    "Folosește /fleet din propriul tău workspace: acolo lucrezi cu contul platformei GPS pe care ți-l asociezi (/fleet login) sau cu cel al workspace-ului tău, în limba ta. Dacă fleetbot nu este instalat acolo, roagă un administrator al workspace-ului tău să-l adauge cu Add to Slack.",
  linkYourOwn: () => "Asociază-ți propriul cont cu /fleet login.",
  linkYourOwnAccount: () => "Asociază-ți propriul cont pe platforma GPS cu /fleet login.",
  unlinked: () => "Contul tău pe platforma GPS a fost dezasociat, iar parola lui a fost ștearsă.",
  hadNoLink: () => "Nu aveai asociat niciun cont pe platforma GPS.",
  nowWorkspaceAccount: ({ username }) =>
    `De acum comenzile tale rulează cu contul workspace-ului, ${username}.`,
  whoamiLinked: ({ username }) =>
    `Comenzile tale rulează cu contul platformei GPS *${username}* (asociat de tine).`,
  whoamiWorkspace: ({ username }) =>
    `Comenzile tale rulează cu contul platformei GPS *${username}* (contul workspace-ului).`,
  unlinkHint: () => "Îl dezasociezi cu /fleet logout.",

  // Titles: at most 24 characters (Slack's limit for a modal title).
  loginTitle: () => "Asociază contul GPS",
  loginTitleWorkspace: () => "Contul workspace-ului",
  loginSubmit: () => "Asociază",
  loginIntro: () =>
    "Asociază-ți propriul cont al platformei GPS: fleetbot lucrează apoi cu drepturile tale. Parola este verificată printr-o autentificare reală, apoi salvată criptat.",
  loginIntroWorkspace: () =>
    "Contul workspace-ului pe platforma GPS: toți cei de aici care nu și-au asociat propriul cont lucrează cu drepturile lui. Parola este verificată printr-o autentificare reală, apoi salvată criptat.",
  loginUsername: () => "Nume de utilizator sau e-mail",
  loginPassword: () => "Parolă",
  loginPasswordHint: () => "Slack nu are câmp de parolă: fereastra aceasta o vezi doar tu.",
  loginRefusedHint: ({ reason }) => `⚠️ ${reason} Verifică parola, apoi apasă din nou Asociază.`,
  loginUsernameMissing: () => "Scrie numele de utilizator sau e-mailul de pe platforma GPS.",
  loginPasswordMissing: () => "Scrie parola de pe platforma GPS.",
  loginNotEnabled: () => "Asocierea nu este activată (lipsește CREDENTIALS_KEY).",
  loginTooMany: ({ time }) =>
    `:no_entry: Prea multe încercări de asociere: încearcă din nou la ${time}. Nu s-a trimis nimic platformei GPS.`,
  loginChecking: ({ username }) =>
    `:hourglass_flowing_sand: Se verifică *${username}* pe platforma GPS… Răspunsul apare aici (și, după asociere, într-un mesaj direct).`,

  linkedUser: ({ username }) =>
    `:white_check_mark: Asociat: de acum comenzile tale rulează cu contul platformei GPS *${username}*.`,
  linkedWorkspace: ({ username }) =>
    `:white_check_mark: Asociat: toți cei din acest workspace care nu și-au asociat propriul cont lucrează de acum cu contul platformei GPS *${username}*.`,
  linkRefusedLogin: () =>
    "Platforma GPS nu a acceptat acest nume de utilizator și această parolă (sau utilizatorul este inactiv).",
  linkTooManyFailures: ({ wait }) =>
    `:no_entry: Au fost încercate prea multe parole greșite pentru acest cont în ultima vreme, așa că fleetbot nu a verificat-o pe aceasta pe platforma GPS. Încearcă din nou peste ${wait}.`,
  linkTryAgain: () => "Încearcă din nou cu /fleet login.",
  linkTryAgainWorkspace: () => "Încearcă din nou cu /fleet login workspace.",

  welcomeInstalledIn: ({ team }) =>
    `:wave: fleetbot este instalat în *${team}*. Mai întâi, setează contul platformei GPS pe care îl folosește workspace-ul: scrie \`/fleet login workspace\` (tu sau un administrator al workspace-ului).`,
  welcomeInstalled: () =>
    ":wave: fleetbot este instalat. Mai întâi, setează contul platformei GPS pe care îl folosește workspace-ul: scrie `/fleet login workspace` (tu sau un administrator al workspace-ului).",
  welcomeNext: () =>
    "Apoi oricine de aici poate începe cu `/fleet ajutor` sau `/fleet unde B-123-ABC`. Cine are propriul cont pe platforma GPS îl poate asocia cu `/fleet login`; ceilalți lucrează cu contul workspace-ului. Alerte de transport: `/fleet alerte abonează #canal`.",
} satisfies Translation<typeof en>;
true satisfies SameParameters<typeof en, typeof account>;
