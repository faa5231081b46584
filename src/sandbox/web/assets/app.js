/* fleetbot sandbox page: renders the fake Slack's state and sends what a Slack client would.
   Plain browser JavaScript, no build step, nothing fetched from the internet. */
(() => {
  // ------------------------------------------------------------------ state

  const S = {
    state: null,
    version: 0,
    active: null, // channel id
    tab: "messages", // DM: "home" | "messages"
    expanded: {}, // thread parent ts -> true
    seen: {}, // channel id -> number of messages seen
    drafts: {}, // view id -> { block id -> { action id -> value } }
    labels: {}, // "view|block|action" -> { value -> text } for external selections
    notices: {}, // channel id -> local Slackbot notices
    nodes: {}, // "channel|ts" -> { sig, node }
    nodesChannel: null, // the channel S.nodes were rendered for
    modalSig: "",
    scrollBeforeDialog: null, // { top, atBottom } of the message list when a modal opened
    denyConfirm: null, // closes the open confirmation dialog as "Cancel"
    homeSig: "",
    fetching: false,
    dirty: false,
    lang: "en", // the page's own words, and the language the switch shows pressed
    serverLang: null, // the language the server says the user last chose through the page
  };

  // ------------------------------------------------------------------ the page's own words
  //
  // The sandbox is a tool around the bot, not the bot: its own words (the banner, the Simulator
  // panel, hints about the sandbox) are kept here, in English and Romanian, not in src/i18n.
  // What fleetbot says comes from the bot, in the user's fleetbot language, which the switch sets
  // through the bot itself (`/fleet language ro|en`, signed like any command). Words of Slack's own
  // client (Channels, Direct messages, Home, Messages, Submit, Cancel, "1 reply"…) stay English,
  // as Slack shows them: Slack has no Romanian interface.
  const WORDS = {
    en: {
      banner:
        "fleetbot against a local fake Slack and the fleet simulator. For a real workspace set <code>SLACK_BOT_TOKEN</code> + <code>SLACK_SIGNING_SECRET</code> (or <code>SLACK_APP_TOKEN</code>) \u2014 see the README.",
      languageLabel: "fleetbot's language",
      languageTitle: (name) => `Answer me in ${name}: sends /fleet language as you, like any command`,
      languageFailed: (why) => `The language was not changed: ${why}`,
      simToggle: "Simulator panel",
      simToggleTitle: "Show or hide the simulator's panel",
      simTitle: "Simulator",
      simIntro:
        "Not part of Slack: the built-in fleet service's controls. Force what a vehicle reports or a transport's GPS transmission status; fleetbot notices it at its next alert check and posts in #alerts.",
      nextCheck: (s) => `Next alert check in ${s} s`,
      fleetConnecting:
        "Connecting to the fleet service\u2026 fleetbot is loading the demo account\u2019s vehicles (the service takes one request every 30 s).",
      fleetFailed: "The fleet service did not answer. fleetbot tries again at your first command.",
      checkUnderWay: "Alert check under way\u2026",
      noTransports: "No pending, active or paused transports. Create one with /etransport new.",
      simRefused: "The simulator refused.",
      vehiclesTitle: "Vehicles",
      vehiclesIntro:
        "Force what a vehicle's tracker reports (each until \u201cBack to normal\u201d); fleetbot's vehicle watch sees it at its next check.",
      pickVehicle: "Vehicle",
      reeferTag: "reefer",
      actCutPower: "Cut power",
      actRestorePower: "Restore power",
      actEnterZone: (zone) => `Drive into \u201c${zone}\u201d`,
      actLeaveZone: (zone) => `Drive out of \u201c${zone}\u201d`,
      actIdle: "Idle",
      actSpeed: "Speed (120 km/h)",
      actSilent: "Go silent",
      actTow: "Tow (2 km)",
      actWarmReefer: "Warm reefer (+12 \u00b0C)",
      actNormal: "Back to normal",
      vehicleDone: (plate, what) => `${plate}: ${what}. fleetbot sees it at its next vehicle check.`,
      doneCutPower: () => "power cut, the tracker runs on its backup battery (about 3 V)",
      doneRestorePower: () => "power restored",
      doneEnterZone: (zone) => `parked inside \u201c${zone}\u201d, engine off`,
      doneLeaveZone: (zone) => `parked 3 km outside \u201c${zone}\u201d, engine off`,
      doneIdle: () => "standing still with the engine running",
      doneSpeed: () => "driving at 120 km/h",
      doneSilent: () => "the tracker stopped reporting; its last position stays",
      doneTow: () => "towed 2 km away, engine off",
      doneTowLater: () =>
        "parked with the engine off; it is towed 2 km as soon as fleetbot's next check has seen it parked",
      doneWarmReefer: (_zone, vehicle) =>
        `the reefer's sensors read ${vehicle?.controls?.reeferTemperature} \u00b0C`,
      doneNormal: () => "back to its day plan",
      vehicleState: (v) =>
        `${v.speed > 0 ? `${v.speed} km/h` : "standing"} \u00b7 engine ${v.engineOn ? "on" : "off"} \u00b7 ${v.voltage} V \u00b7 GPS ${v.gpsDate.slice(11, 16)}`,
      forcedControls: (list) => `Forced: ${list}`,
      ctlPower: "power cut",
      ctlPlace: "placed",
      ctlIdle: "idling",
      ctlSpeed: (kmh) => `${kmh} km/h`,
      ctlTow: "towed",
      ctlSilent: "silent",
      ctlReefer: (c) => `reefer ${c} \u00b0C`,
      ctlPrivate: "private",
      movedToError: (plate) =>
        `${plate}: moved to Error. The service no longer lists it; the bot checks it at its next alert sweep.`,
      restored: (plate) => `${plate}: listed again with its status.`,
      forcedToast: (plate, code) =>
        `${plate}: transmission ${code === "clear" ? "back to the simulation" : code}. The bot sees it at its next alert check.`,
      forced: (code) => `\u00b7 forced ${code}`,
      forceError: "Error",
      forceNoGps: "No GPS",
      forceActive: "Active",
      release: "Release",
      restore: "Restore status",
      moveToError: "Move to Error (hidden)",
      emptyDm:
        "This is your conversation with fleetbot. Its files and private answers land here. Try /fleet help.",
      emptyAlerts:
        "Transport alerts are posted here. Subscribe with /fleet alerts subscribe, or force a transmission error in the Simulator panel.",
      emptyChannel: (plate) => `Type a slash command below, e.g. /fleet where ${plate} or /etransport new.`,
      plateHint: "<plate>",
      topicDm: "Direct messages and the Home tab of the fleetbot app",
      topicAlerts: "Transport transmission alerts",
      topicGeneral: "Dispatch: vehicles, reports and e-Transport",
      loadingHome: "Loading the Home tab\u2026",
      violation: (source, error, reason) =>
        `Real Slack would refuse what the app sent (${source}: ${error}). ${reason}`,
      sending: (what) => `Sending ${what}\u2026`,
      commandFailed: "That command failed.",
      actionFailed: "The action failed.",
      submitFailed: "The submission failed.",
      closeFailed: "Could not close the view.",
      homeFailed: "The app did not answer app_home_opened.",
      foot: "Enter sends \u00b7 \u2191\u2193 and Tab pick a command \u00b7 the bot answers through the same signed requests as Slack",
      plainMessage:
        "fleetbot answers slash commands only: try /fleet help or /etransport help. (Plain messages are not sent in the sandbox.)",
    },
    ro: {
      banner:
        "fleetbot pe un Slack simulat local și pe simulatorul platformei GPS. Pentru un workspace real setează <code>SLACK_BOT_TOKEN</code> + <code>SLACK_SIGNING_SECRET</code> (sau <code>SLACK_APP_TOKEN</code>) \u2014 vezi README.",
      languageLabel: "Limba lui fleetbot",
      languageTitle: (name) =>
        `Răspunde-mi în ${name === "English" ? "engleză" : name}: trimite /fleet limba în numele tău, ca orice comandă`,
      languageFailed: (why) => `Limba nu s-a schimbat: ${why}`,
      simToggle: "Panoul simulatorului",
      simToggleTitle: "Arată sau ascunde panoul simulatorului",
      simTitle: "Simulator",
      simIntro:
        "Nu face parte din Slack: comenzile platformei GPS simulate. Forțează ce raportează un vehicul sau starea transmisiei GPS a unui transport; fleetbot observă la următoarea verificare a alertelor și scrie în #alerts.",
      nextCheck: (s) => `Următoarea verificare a alertelor în ${s} s`,
      fleetConnecting:
        "Conectare la platforma GPS\u2026 fleetbot încarcă vehiculele contului demo (platforma GPS acceptă o cerere la 30 s).",
      fleetFailed: "Platforma GPS nu a răspuns. fleetbot încearcă din nou la prima ta comandă.",
      checkUnderWay: "Verificarea alertelor e în curs\u2026",
      noTransports:
        "Niciun transport în așteptare, în desfășurare sau în pauză. Creează unul cu /etransport nou.",
      simRefused: "Simulatorul a refuzat.",
      vehiclesTitle: "Vehicule",
      vehiclesIntro:
        "Forțează ce raportează echipamentul GPS al unui vehicul (până la \u201eÎnapoi la normal\u201d); fleetbot vede schimbarea la următoarea verificare a vehiculelor.",
      pickVehicle: "Vehicul",
      reeferTag: "frigorific",
      actCutPower: "Taie alimentarea",
      actRestorePower: "Restabilește alimentarea",
      actEnterZone: (zone) => `Intră în \u201e${zone}\u201d`,
      actLeaveZone: (zone) => `Ieși din \u201e${zone}\u201d`,
      actIdle: "Motor la ralanti",
      actSpeed: "Viteză (120 km/h)",
      actSilent: "Fără semnal",
      actTow: "Tractează (2 km)",
      actWarmReefer: "Încălzește frigiderul (+12 \u00b0C)",
      actNormal: "Înapoi la normal",
      vehicleDone: (plate, what) =>
        `${plate}: ${what}. fleetbot vede asta la următoarea verificare a vehiculelor.`,
      doneCutPower: () => "alimentarea e tăiată, echipamentul GPS merge pe bateria de rezervă (circa 3 V)",
      doneRestorePower: () => "alimentarea e restabilită",
      doneEnterZone: (zone) => `parcat în \u201e${zone}\u201d, cu motorul oprit`,
      doneLeaveZone: (zone) => `parcat la 3 km în afara zonei \u201e${zone}\u201d, cu motorul oprit`,
      doneIdle: () => "stă pe loc cu motorul pornit",
      doneSpeed: () => "rulează cu 120 km/h",
      doneSilent: () => "echipamentul GPS nu mai transmite; rămâne ultima poziție",
      doneTow: () => "tractat la 2 km, cu motorul oprit",
      doneTowLater: () =>
        "parcat cu motorul oprit; e tractat 2 km imediat ce următoarea verificare a lui fleetbot îl vede parcat",
      doneWarmReefer: (_zone, vehicle) =>
        `senzorii frigiderului arată ${String(vehicle?.controls?.reeferTemperature).replace(".", ",")} \u00b0C`,
      doneNormal: () => "înapoi la programul zilei",
      vehicleState: (v) =>
        `${v.speed > 0 ? `${v.speed} km/h` : "staționează"} \u00b7 motor ${v.engineOn ? "pornit" : "oprit"} \u00b7 ${String(v.voltage).replace(".", ",")} V \u00b7 GPS ${v.gpsDate.slice(11, 16)}`,
      forcedControls: (list) => `Forțat: ${list}`,
      ctlPower: "fără alimentare",
      ctlPlace: "mutat",
      ctlIdle: "la ralanti",
      ctlSpeed: (kmh) => `${kmh} km/h`,
      ctlTow: "tractat",
      ctlSilent: "fără semnal",
      ctlReefer: (c) => `frigiderul la ${String(c).replace(".", ",")} \u00b0C`,
      ctlPrivate: "privat",
      movedToError: (plate) =>
        `${plate}: mutat în starea Eroare. Platforma GPS nu îl mai afișează în listă; fleetbot observă asta la următoarea verificare a alertelor.`,
      restored: (plate) => `${plate}: listat din nou, cu starea lui.`,
      forcedToast: (plate, code) =>
        `${plate}: transmisie ${code === "clear" ? "înapoi la simulare" : code}. fleetbot o vede la următoarea verificare a alertelor.`,
      forced: (code) => `\u00b7 forțat ${code}`,
      forceError: "Eroare",
      forceNoGps: "Fără GPS",
      forceActive: "Activă",
      release: "Anulează forțarea",
      restore: "Repune starea",
      moveToError: "Mută în Eroare (ascuns)",
      emptyDm:
        "Aceasta e conversația ta cu fleetbot. Aici ajung fișierele și răspunsurile doar pentru tine. Încearcă /fleet ajutor.",
      emptyAlerts:
        "Aici apar alertele transporturilor. Abonează canalul cu /fleet alerte abonează #alerts lang=ro (alerte în română) sau forțează o eroare de transmisie din panoul simulatorului.",
      emptyChannel: (plate) =>
        `Scrie o comandă mai jos, de exemplu /fleet unde ${plate} sau /etransport nou.`,
      plateHint: "<număr>",
      topicDm: "Mesaje directe și tab-ul Home al aplicației fleetbot",
      topicAlerts: "Alertele de transmisie ale transporturilor",
      topicGeneral: "Dispecerat: vehicule, rapoarte și e-Transport",
      loadingHome: "Se încarcă tab-ul Home\u2026",
      violation: (source, error, reason) =>
        `Slack-ul real ar refuza ce a trimis aplicația (${source}: ${error}). ${reason}`,
      sending: (what) => `Se trimite ${what}\u2026`,
      commandFailed: "Comanda nu a reușit.",
      actionFailed: "Acțiunea nu a reușit.",
      submitFailed: "Trimiterea formularului nu a reușit.",
      closeFailed: "Fereastra nu s-a putut închide.",
      homeFailed: "Aplicația nu a răspuns la app_home_opened.",
      foot: "Enter trimite \u00b7 \u2191\u2193 și Tab aleg o comandă \u00b7 fleetbot răspunde prin aceleași cereri semnate ca în Slack",
      plainMessage:
        "fleetbot răspunde doar la comenzi: încearcă /fleet ajutor sau /etransport ajutor. (În sandbox mesajele obișnuite nu se trimit.)",
    },
  };
  const LANGUAGE_NAMES = { en: "English", ro: "română" };
  const LANGUAGE_KEY = "fleetbot-sandbox-language";

  /** The page's own word `key` in its language (a function of `args` where the word has parts). */
  function t(key, ...args) {
    const word = (WORDS[S.lang] || WORDS.en)[key];
    return typeof word === "function" ? word(...args) : word;
  }

  const $ = (sel, root) => (root || document).querySelector(sel);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const key in attrs) {
        const v = attrs[key];
        if (v === undefined || v === null || v === false) continue;
        if (key === "class") node.className = v;
        else if (key === "text") node.textContent = v;
        else if (key === "html") node.innerHTML = v;
        else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), v);
        else node.setAttribute(key, v === true ? "" : String(v));
      }
    }
    for (const child of children) append(node, child);
    return node;
  }

  function append(node, child) {
    if (child === undefined || child === null || child === false) return;
    if (Array.isArray(child)) {
      child.forEach((c) => {
        append(node, c);
      });
      return;
    }
    node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }

  // The API answers only requests that carry this page's token (a cross-origin page cannot read it).
  const TOKEN = document.querySelector('meta[name="sandbox-token"]')?.content || "";

  /** A GET URL of the API for what cannot send headers (images, links, EventSource). */
  function withToken(url) {
    return `${url}${url.indexOf("?") >= 0 ? "&" : "?"}token=${encodeURIComponent(TOKEN)}`;
  }

  function api(path, body) {
    const headers = { "x-sandbox-token": TOKEN };
    const init =
      body === undefined
        ? { headers: headers }
        : {
            method: "POST",
            headers: Object.assign({ "content-type": "application/json" }, headers),
            body: JSON.stringify(body),
          };
    return fetch(path, init).then((res) =>
      res
        .json()
        .catch(() => ({ ok: false, error: `HTTP ${res.status}` }))
        .then((json) => {
          json.httpStatus = res.status;
          return json;
        }),
    );
  }

  let toastTimer = null;
  function toast(text) {
    const node = $("#toast");
    node.textContent = text;
    node.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      node.hidden = true;
    }, 4000);
  }

  // ------------------------------------------------------------------ mrkdwn

  const EMOJI = {
    warning: "\u26a0\ufe0f",
    hourglass_flowing_sand: "\u23f3",
    hourglass: "\u231b",
    x: "\u274c",
    truck: "\ud83d\ude9a",
    white_check_mark: "\u2705",
    heavy_check_mark: "\u2714\ufe0f",
    wastebasket: "\ud83d\uddd1\ufe0f",
    no_entry_sign: "\ud83d\udeab",
    no_entry: "\u26d4",
    red_circle: "\ud83d\udd34",
    large_green_circle: "\ud83d\udfe2",
    large_yellow_circle: "\ud83d\udfe1",
    rotating_light: "\ud83d\udea8",
    bell: "\ud83d\udd14",
    thermometer: "\ud83c\udf21\ufe0f",
    fuelpump: "\u26fd",
    round_pushpin: "\ud83d\udccd",
    world_map: "\ud83d\uddfa\ufe0f",
    calendar: "\ud83d\udcc5",
    date: "\ud83d\udcc5",
    bar_chart: "\ud83d\udcca",
    chart_with_upwards_trend: "\ud83d\udcc8",
    information_source: "\u2139\ufe0f",
    arrow_forward: "\u25b6\ufe0f",
    double_vertical_bar: "\u23f8\ufe0f",
    black_square_for_stop: "\u23f9\ufe0f",
    pencil2: "\u270f\ufe0f",
    memo: "\ud83d\udcdd",
    page_facing_up: "\ud83d\udcc4",
    link: "\ud83d\udd17",
    satellite: "\ud83d\udef0\ufe0f",
    snowflake: "\u2744\ufe0f",
    package: "\ud83d\udce6",
    bust_in_silhouette: "\ud83d\udc64",
    gear: "\u2699\ufe0f",
    lock: "\ud83d\udd12",
    key: "\ud83d\udd11",
    mag: "\ud83d\udd0d",
    stopwatch: "\u23f1\ufe0f",
    clock3: "\ud83d\udd52",
    "+1": "\ud83d\udc4d",
    tada: "\ud83c\udf89",
    question: "\u2753",
    exclamation: "\u2757",
    recycle: "\u267b\ufe0f",
    inbox_tray: "\ud83d\udce5",
    outbox_tray: "\ud83d\udce4",
    floppy_disk: "\ud83d\udcbe",
  };

  function esc(text) {
    return String(text).replace(
      /[&<>"']/g,
      (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
    );
  }

  /** Slack escapes &, < and > in text; show them as characters. */
  function decode(text) {
    return String(text).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  }

  function emoji(html) {
    return html.replace(/:([a-z0-9_+-]+):/g, (m, name) => EMOJI[name] || m);
  }

  /** *bold*, _italic_, ~strike~ with Slack's word boundaries. */
  function styles(html) {
    const rules = [
      ["\\*", "strong"],
      ["_", "em"],
      ["~", "s"],
    ];
    rules.forEach((rule) => {
      const c = rule[0];
      const re = new RegExp(`(^|[^\\w${c}])${c}(?=\\S)([^${c}\\n]*?\\S)${c}(?![\\w${c}])`, "g");
      html = html.replace(re, (_m, pre, body) => `${pre}<${rule[1]}>${body}</${rule[1]}>`);
    });
    return html;
  }

  function ordinal(n) {
    const s = ["th", "st", "nd", "rd"];
    const v = n % 100;
    return n + (s[(v - 20) % 10] || s[v] || s[0]);
  }

  function dayDiff(d) {
    const today = new Date();
    const a = Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
    const b = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
    return Math.round((a - b) / 86400000);
  }

  function pretty(d) {
    const diff = dayDiff(d);
    return diff === 0 ? "today" : diff === -1 ? "yesterday" : diff === 1 ? "tomorrow" : null;
  }

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  /** Slack's date tokens, in the browser's zone and locale. */
  function formatDate(seconds, format) {
    const d = new Date(seconds * 1000);
    const month = (style) => d.toLocaleDateString("en-US", { month: style });
    const weekday = d.toLocaleDateString("en-US", { weekday: "long" });
    const parts = {
      date_num: `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`,
      date: `${month("long")} ${ordinal(d.getDate())}, ${d.getFullYear()}`,
      date_short: `${month("short")} ${d.getDate()}, ${d.getFullYear()}`,
      date_long: `${weekday}, ${month("long")} ${ordinal(d.getDate())}, ${d.getFullYear()}`,
      time: d.toLocaleTimeString([], { hour: "numeric", minute: "2-digit" }),
      time_secs: d.toLocaleTimeString([], { hour: "numeric", minute: "2-digit", second: "2-digit" }),
    };
    parts.date_pretty = pretty(d) || parts.date;
    parts.date_short_pretty = pretty(d) || parts.date_short;
    parts.date_long_pretty = pretty(d) || parts.date_long;
    const diffS = Math.round((d.getTime() - Date.now()) / 1000);
    const abs = Math.abs(diffS);
    const rtf = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
    parts.ago =
      abs < 60
        ? rtf.format(diffS, "second")
        : abs < 3600
          ? rtf.format(Math.round(diffS / 60), "minute")
          : abs < 86400
            ? rtf.format(Math.round(diffS / 3600), "hour")
            : rtf.format(Math.round(diffS / 86400), "day");
    return format.replace(/\{(\w+)\}/g, (m, key) => (parts[key] !== undefined ? parts[key] : m));
  }

  function nameOf(id) {
    return S.state?.names[id] || id;
  }

  /** One <…> token: a link, a mention, a channel, a date, or a special mention. */
  function token(inner) {
    const bar = inner.indexOf("|");
    const target = bar >= 0 ? inner.slice(0, bar) : inner;
    const label = bar >= 0 ? inner.slice(bar + 1) : null;
    if (target[0] === "@") return `<span class="mention">@${esc(label || nameOf(target.slice(1)))}</span>`;
    if (target[0] === "#")
      return `<span class="channel-link">#${esc(label || nameOf(target.slice(1)))}</span>`;
    if (target.slice(0, 6) === "!date^") {
      const bits = target.split("^");
      const seconds = Number(bits[1]);
      if (!Number.isFinite(seconds)) return esc(decode(label || ""));
      const text = formatDate(seconds, decode(bits[2] || "{date_short} {time}"));
      const iso = new Date(seconds * 1000).toISOString();
      const title = new Date(seconds * 1000).toString();
      const body = `<time datetime="${iso}" title="${esc(title)}">${esc(text)}</time>`;
      return bits[3]
        ? `<a href="${esc(safeUrl(decode(bits[3])))}" target="_blank" rel="noopener">${body}</a>`
        : body;
    }
    if (target[0] === "!") {
      const special = target.slice(1).split("^")[0];
      return `<span class="mention">${esc(label || `@${special}`)}</span>`;
    }
    const url = safeUrl(decode(target));
    return `<a href="${esc(url)}" target="_blank" rel="noopener">${esc(decode(label || target))}</a>`;
  }

  function safeUrl(url) {
    return /^(https?:|mailto:|\/)/i.test(url) ? url : "#";
  }

  /** Inline mrkdwn (no code blocks) to HTML. */
  function inlineMd(text) {
    const saved = [];
    const keep = (html) => {
      saved.push(html);
      return `\uE000${saved.length - 1}\uE000`;
    };
    text = text.replace(/\x60([^\x60\n]+)\x60/g, (_m, code) => keep(`<code>${esc(decode(code))}</code>`));
    text = text.replace(/<([^<>\n]+)>/g, (_m, inner) => keep(token(inner)));
    let html = styles(emoji(esc(decode(text))));
    const lines = html.split("\n").map((line) => {
      const quote = /^&gt; ?(.*)$/.exec(line);
      return quote ? `<blockquote>${quote[1]}</blockquote>` : line;
    });
    html = lines.join("<br>").replace(/<\/blockquote><br>/g, "</blockquote>");
    return html.replace(/\uE000(\d+)\uE000/g, (_m, i) => saved[Number(i)]);
  }

  function mrkdwn(text) {
    let out = "";
    const parts = String(text || "").split(/\x60\x60\x60/);
    parts.forEach((part, i) => {
      if (i % 2 === 1 && i < parts.length - 1) out += `<pre>${esc(decode(part.replace(/^\n/, "")))}</pre>`;
      else out += inlineMd(i % 2 === 1 ? `\x60\x60\x60${part}` : part);
    });
    return out;
  }

  /** A text object (plain_text or mrkdwn) as an element. */
  function textObj(obj, tag) {
    const node = el(tag || "span", { class: "md" });
    if (!obj) return node;
    if (typeof obj === "string") node.innerHTML = mrkdwn(obj);
    else if (obj.type === "mrkdwn") node.innerHTML = mrkdwn(obj.text);
    else node.innerHTML = obj.emoji === false ? esc(obj.text) : emoji(esc(obj.text));
    return node;
  }

  function plain(obj) {
    if (!obj) return "";
    return typeof obj === "string" ? obj : obj.text || "";
  }

  // ------------------------------------------------------------------ Block Kit

  function blockIdOf(block, index) {
    return block.block_id || `block-${index}`;
  }

  function renderBlocks(blocks, ctx) {
    const wrap = el("div", { class: "bk-blocks" });
    (blocks || []).forEach((block, index) => {
      append(wrap, renderBlock(block, index, ctx));
    });
    return wrap;
  }

  function renderBlock(block, index, ctx) {
    const blockId = blockIdOf(block, index);
    switch (block.type) {
      case "header":
        return el("div", { class: "bk-header" }, textObj(block.text));
      case "divider":
        return el("hr", { class: "bk-divider" });
      case "section": {
        const main = el("div", { class: "bk-section-main" });
        if (block.text) append(main, textObj(block.text, "div"));
        if (block.text) main.firstChild.classList.add("bk-section-text");
        if (block.fields) {
          append(
            main,
            el(
              "div",
              { class: "bk-fields" },
              block.fields.map((f) => textObj(f, "div")),
            ),
          );
        }
        const section = el("div", { class: "bk-section", "data-block-id": blockId }, main);
        if (block.accessory)
          append(section, el("div", { class: "bk-accessory" }, renderElement(block.accessory, blockId, ctx)));
        return section;
      }
      case "context":
        return el(
          "div",
          { class: "bk-context", "data-block-id": blockId },
          (block.elements || []).map((e) => (e.type === "image" ? imageEl(e) : textObj(e))),
        );
      case "image":
        return el(
          "div",
          { class: "bk-image" },
          block.title ? el("div", { class: "bk-image-title" }, textObj(block.title)) : null,
          imageEl(block),
        );
      case "actions":
        return el(
          "div",
          { class: "bk-actions", "data-block-id": blockId },
          (block.elements || []).map((e) => renderElement(e, blockId, ctx)),
        );
      case "input":
        return renderInput(block, blockId, ctx);
      case "rich_text":
        return el("div", { class: "md" }, richText(block));
      case "file":
        return el("div", { class: "bk-unsupported", text: `[remote file ${block.external_id || ""}]` });
      default:
        return el("div", { class: "bk-unsupported", text: `[${block.type} block]` });
    }
  }

  function richText(block) {
    let text = "";
    const walk = (node) => {
      if (!node) return;
      if (typeof node.text === "string") text += node.text;
      (node.elements || []).forEach(walk);
    };
    walk(block);
    return text;
  }

  function fileUrl(id) {
    return withToken(`/sandbox/files?id=${encodeURIComponent(id)}`);
  }

  function imageEl(e) {
    const src =
      e.image_url || (e.slack_file && (e.slack_file.id ? fileUrl(e.slack_file.id) : e.slack_file.url)) || "";
    const img = el("img", { src: src, alt: e.alt_text || "", title: e.alt_text || "" });
    img.addEventListener("error", () => {
      img.replaceWith(
        el("span", {
          class: "bk-image-missing",
          text: `\ud83d\uddbc\ufe0f ${e.alt_text || "image"} (offline)`,
        }),
      );
    });
    return img;
  }

  /** Sends a block_actions for an element of a message, the Home tab or a modal. */
  function act(ctx, blockId, element, extra) {
    const body = { actionId: element.action_id, blockId: blockId };
    if (ctx.viewId) body.viewId = ctx.viewId;
    else {
      body.channel = ctx.channel;
      body.ts = ctx.ts;
    }
    for (const k in extra) body[k] = extra[k];
    return api("/sandbox/action", body).then((res) => {
      if (!res.ok) toast(res.error || t("actionFailed"));
      return res;
    });
  }

  function withConfirm(confirm, run) {
    if (!confirm) return run();
    return confirmDialog(confirm).then((yes) => (yes ? run() : undefined));
  }

  function renderElement(e, blockId, ctx) {
    switch (e.type) {
      case "button": {
        const btn = el("button", {
          class: `bk-btn${e.style ? ` ${e.style}` : ""}`,
          type: "button",
          "data-action-id": e.action_id,
          title: e.accessibility_label,
        });
        append(btn, textObj(e.text));
        btn.addEventListener("click", () => {
          withConfirm(e.confirm, () => {
            if (e.url) window.open(e.url, "_blank", "noopener");
            btn.classList.add("busy");
            return act(ctx, blockId, e, e.value !== undefined ? { value: e.value } : {}).then(() => {
              btn.classList.remove("busy");
            });
          });
        });
        return btn;
      }
      case "static_select":
      case "users_select":
      case "conversations_select":
      case "channels_select": {
        const select = nativeSelect(e, ctx);
        select.addEventListener("change", () => {
          if (!select.value) return;
          const key = e.type === "static_select" ? "selectedOption" : "value";
          const payload = {};
          payload[key] = select.value;
          withConfirm(e.confirm, () => act(ctx, blockId, e, payload));
        });
        return select;
      }
      case "external_select":
      case "multi_external_select":
      case "multi_static_select":
        return combo(e, blockId, ctx, (values) => {
          const payload =
            e.type === "external_select" ? { selectedOption: values[0] } : { selectedOptions: values };
          withConfirm(e.confirm, () => act(ctx, blockId, e, payload));
        });
      case "overflow":
        return overflow(e, blockId, ctx);
      case "datepicker": {
        const date = el("input", {
          class: "bk-date",
          type: "date",
          value: e.initial_date || "",
          "data-action-id": e.action_id,
        });
        date.addEventListener("change", () =>
          withConfirm(e.confirm, () => act(ctx, blockId, e, { selectedDate: date.value })),
        );
        return date;
      }
      case "timepicker": {
        const time = el("input", {
          class: "bk-date",
          type: "time",
          value: e.initial_time || "",
          "data-action-id": e.action_id,
        });
        time.addEventListener("change", () =>
          withConfirm(e.confirm, () => act(ctx, blockId, e, { selectedTime: time.value })),
        );
        return time;
      }
      case "datetimepicker": {
        const dt = el("input", {
          class: "bk-date",
          type: "datetime-local",
          value: localDateTime(e.initial_date_time),
          "data-action-id": e.action_id,
        });
        dt.addEventListener("change", () =>
          withConfirm(e.confirm, () => act(ctx, blockId, e, { selectedDateTime: toSeconds(dt.value) })),
        );
        return dt;
      }
      case "image":
        return imageEl(e);
      case "checkboxes":
      case "radio_buttons":
        return choices(e, null, (value) => {
          act(
            ctx,
            blockId,
            e,
            e.type === "checkboxes" ? { selectedOptions: value } : { selectedOption: value },
          );
        });
      default:
        return el("span", { class: "bk-unsupported", text: `[${e.type}]` });
    }
  }

  function optionsOf(e) {
    const list = [];
    (e.options || []).forEach((o) => {
      list.push(o);
    });
    (e.option_groups || []).forEach((g) => {
      (g.options || []).forEach((o) => {
        list.push(o);
      });
    });
    return list;
  }

  function nativeSelect(e, ctx, selected) {
    const select = el("select", { class: "bk-select", "data-action-id": e.action_id });
    append(select, el("option", { value: "", text: plain(e.placeholder) || "Select an item" }));
    const initial = selected !== undefined ? selected : initialOf(e);
    const addOption = (parent, value, text) => {
      append(parent, el("option", { value: value, text: text, selected: value === initial }));
    };
    if (e.type === "static_select") {
      (e.options || []).forEach((o) => {
        addOption(select, o.value, plain(o.text));
      });
      (e.option_groups || []).forEach((g) => {
        const group = el("optgroup", { label: plain(g.label) });
        g.options.forEach((o) => {
          addOption(group, o.value, plain(o.text));
        });
        append(select, group);
      });
    } else {
      const names = S.state?.names || {};
      const wantUsers = e.type === "users_select";
      Object.keys(names).forEach((id) => {
        const isUser = id[0] === "U" || id[0] === "W";
        if (isUser === wantUsers) addOption(select, id, (wantUsers ? "@" : "#") + names[id]);
      });
    }
    void ctx;
    return select;
  }

  function initialOf(e) {
    if (e.initial_option) return e.initial_option.value;
    if (e.initial_options) return e.initial_options.map((o) => o.value);
    if (e.initial_value !== undefined) return String(e.initial_value);
    if (e.initial_date) return e.initial_date;
    if (e.initial_time) return e.initial_time;
    if (e.initial_date_time !== undefined) return e.initial_date_time;
    if (e.initial_user) return e.initial_user;
    if (e.initial_conversation) return e.initial_conversation;
    if (e.initial_channel) return e.initial_channel;
    return undefined;
  }

  function localDateTime(seconds) {
    if (seconds === undefined || seconds === null || seconds === "") return "";
    const d = new Date(Number(seconds) * 1000);
    return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
  }

  function toSeconds(local) {
    if (!local) return null;
    const ms = new Date(local).getTime();
    return Number.isFinite(ms) ? Math.floor(ms / 1000) : null;
  }

  function overflow(e, blockId, ctx) {
    const wrap = el("span", { class: "bk-overflow" });
    const btn = el("button", {
      class: "bk-btn",
      type: "button",
      "data-action-id": e.action_id,
      title: "More actions",
      text: "\u22ee",
    });
    let menu = null;
    const close = () => {
      if (menu) menu.remove();
      menu = null;
      document.removeEventListener("mousedown", outside, true);
    };
    const outside = (ev) => {
      if (!wrap.contains(ev.target)) close();
    };
    btn.addEventListener("click", () => {
      if (menu) return close();
      menu = el(
        "div",
        { class: "menu", role: "menu" },
        (e.options || []).map((o) =>
          el(
            "button",
            {
              class: "menu-item",
              type: "button",
              onclick: () => {
                close();
                withConfirm(e.confirm, () => {
                  if (o.url) window.open(o.url, "_blank", "noopener");
                  return act(ctx, blockId, e, { selectedOption: o.value });
                });
              },
            },
            textObj(o.text),
          ),
        ),
      );
      wrap.appendChild(menu);
      document.addEventListener("mousedown", outside, true);
    });
    wrap.appendChild(btn);
    return wrap;
  }

  function choices(e, selected, onChange) {
    const multi = e.type === "checkboxes";
    const current = selected !== null && selected !== undefined ? selected : initialOf(e);
    const name = `c${Math.random().toString(36).slice(2)}`;
    const wrap = el("div", { class: "bk-choices", "data-action-id": e.action_id });
    const read = () => {
      const picked = [];
      wrap.querySelectorAll("input").forEach((i) => {
        if (i.checked) picked.push(i.value);
      });
      return multi ? picked : picked[0] || null;
    };
    (e.options || []).forEach((o) => {
      const checked = multi ? (current || []).indexOf(o.value) >= 0 : current === o.value;
      const input = el("input", {
        type: multi ? "checkbox" : "radio",
        name: name,
        value: o.value,
        checked: checked,
      });
      input.addEventListener("change", () => onChange(read()));
      append(
        wrap,
        el(
          "label",
          null,
          input,
          textObj(o.text),
          o.description ? el("small", null, textObj(o.description)) : null,
        ),
      );
    });
    return wrap;
  }

  /**
   * A select with a text box: external selects ask the app for options (block_suggestion);
   * multi selects show chips. onChange(values) gets the chosen option values.
   */
  function combo(e, blockId, ctx, onChange, selected) {
    const multi = e.type.indexOf("multi_") === 0;
    const external = e.type.indexOf("external") >= 0;
    const labelKey = `${ctx.viewId || ctx.ts || ""}|${blockId}|${e.action_id}`;
    S.labels[labelKey] ??= {};
    const labels = S.labels[labelKey];
    let picked = [];
    const initial = e.initial_option ? [e.initial_option] : e.initial_options || [];
    initial.forEach((o) => {
      labels[o.value] = plain(o.text);
    });
    if (selected !== undefined && selected !== null)
      picked = Array.isArray(selected) ? selected.slice() : [String(selected)];
    else picked = initial.map((o) => o.value);

    const wrap = el("div", { class: "combo", "data-action-id": e.action_id });
    const box = el("div", { class: "combo-box" });
    const input = el("input", {
      type: "text",
      placeholder: plain(e.placeholder) || (external ? "Type to search" : "Select options"),
      autocomplete: "off",
    });
    let menu = null;
    let hl = -1;
    let shown = [];
    let seq = 0;
    let timer = null;

    const draw = () => {
      box.innerHTML = "";
      if (multi) {
        picked.forEach((value) => {
          append(
            box,
            el(
              "span",
              { class: "chip" },
              labels[value] || value,
              el("button", {
                type: "button",
                title: "Remove",
                text: "\u00d7",
                onclick: () => {
                  picked = picked.filter((v) => v !== value);
                  draw();
                  onChange(picked.slice());
                },
              }),
            ),
          );
        });
      } else if (document.activeElement !== input) {
        input.value = picked[0] ? labels[picked[0]] || picked[0] : "";
      }
      box.appendChild(input);
    };

    const closeMenu = () => {
      if (menu) menu.remove();
      menu = null;
      hl = -1;
    };

    const choose = (option) => {
      labels[option.value] = plain(option.text);
      if (multi) {
        if (picked.indexOf(option.value) < 0) picked.push(option.value);
        input.value = "";
      } else {
        picked = [option.value];
        input.value = plain(option.text);
      }
      closeMenu();
      draw();
      if (multi) input.focus();
      else input.blur();
      onChange(picked.slice());
    };

    const showOptions = (options, groups) => {
      closeMenu();
      menu = el("div", { class: "menu", role: "listbox" });
      shown = [];
      const add = (o) => {
        shown.push(o);
        append(
          menu,
          el(
            "button",
            {
              class: "menu-item",
              type: "button",
              role: "option",
              "data-value": o.value,
              onmousedown: (ev) => {
                ev.preventDefault();
                choose(o);
              },
            },
            plain(o.text),
          ),
        );
      };
      (options || []).forEach(add);
      (groups || []).forEach((g) => {
        append(menu, el("div", { class: "menu-group", text: plain(g.label) }));
        (g.options || []).forEach(add);
      });
      if (shown.length === 0) append(menu, el("div", { class: "menu-empty", text: "No matches" }));
      wrap.appendChild(menu);
    };

    const load = () => {
      const query = input.value;
      if (!external) {
        const q = query.toLowerCase();
        showOptions(optionsOf(e).filter((o) => plain(o.text).toLowerCase().indexOf(q) >= 0));
        return;
      }
      const min = e.min_query_length === undefined ? 3 : e.min_query_length;
      if (query.length < min) {
        closeMenu();
        return;
      }
      const mine = ++seq;
      const body = { actionId: e.action_id, blockId: blockId, value: query };
      if (ctx.viewId) body.viewId = ctx.viewId;
      else {
        body.channel = ctx.channel;
        body.ts = ctx.ts;
      }
      api("/sandbox/suggest", body).then((res) => {
        if (mine !== seq || document.activeElement !== input) return;
        if (!res.ok && res.error) toast(res.error);
        showOptions(res.options, res.option_groups);
      });
    };

    input.addEventListener("focus", load);
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(load, external ? 150 : 0);
    });
    input.addEventListener("blur", () => {
      setTimeout(() => {
        closeMenu();
        draw();
      }, 120);
    });
    input.addEventListener("keydown", (ev) => {
      const items = menu ? menu.querySelectorAll(".menu-item") : [];
      if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
        ev.preventDefault();
        if (items.length === 0) return;
        hl = (hl + (ev.key === "ArrowDown" ? 1 : -1) + items.length) % items.length;
        items.forEach((item, i) => {
          item.classList.toggle("hl", i === hl);
        });
      } else if (ev.key === "Enter") {
        ev.preventDefault();
        if (shown.length > 0) choose(shown[hl >= 0 ? hl : 0]);
      } else if (ev.key === "Escape") {
        // The menu takes this Escape, not the dialog around it.
        ev.preventDefault();
        closeMenu();
      } else if (ev.key === "Backspace" && multi && input.value === "" && picked.length > 0) {
        picked.pop();
        draw();
        onChange(picked.slice());
      }
    });
    wrap.appendChild(box);
    draw();
    return wrap;
  }

  // ------------------------------------------------------------------ modals

  function draftOf(viewId) {
    S.drafts[viewId] ??= {};
    return S.drafts[viewId];
  }

  function setDraft(viewId, blockId, actionId, value) {
    const d = draftOf(viewId);
    d[blockId] = d[blockId] || {};
    d[blockId][actionId] = value;
  }

  function draftValue(viewId, blockId, actionId) {
    const d = S.drafts[viewId];
    return d?.[blockId] && Object.hasOwn(d[blockId], actionId) ? d[blockId][actionId] : undefined;
  }

  function renderInput(block, blockId, ctx) {
    const e = block.element || {};
    const viewId = ctx.viewId;
    const errors = ctx.errors || {};
    const id = `in-${blockId}`;
    const current = draftValue(viewId, blockId, e.action_id);
    const has = current !== undefined;
    const set = (value) => {
      setDraft(viewId, blockId, e.action_id, value);
      if (block.dispatch_action) dispatchFromInput(value);
    };
    const dispatchFromInput = (value) => {
      const extra = {};
      if (/select/.test(e.type)) extra[Array.isArray(value) ? "selectedOptions" : "selectedOption"] = value;
      else if (e.type === "datepicker") extra.selectedDate = value;
      else if (e.type === "timepicker") extra.selectedTime = value;
      else if (e.type === "datetimepicker") extra.selectedDateTime = value;
      else extra.value = value;
      act(ctx, blockId, e, extra);
    };
    let control;
    switch (e.type) {
      case "plain_text_input":
      case "email_text_input":
      case "url_text_input":
      case "number_input": {
        const value = has
          ? current === null
            ? ""
            : String(current)
          : e.initial_value !== undefined
            ? String(e.initial_value)
            : "";
        const attrs = {
          id: id,
          class: "bk-input",
          value: value,
          placeholder: plain(e.placeholder),
          maxlength: e.max_length,
          "data-action-id": e.action_id,
          "data-block-id": blockId,
        };
        if (e.type === "number_input") {
          attrs.type = "number";
          attrs.step = e.is_decimal_allowed ? "any" : "1";
          attrs.min = e.min_value;
          attrs.max = e.max_value;
        } else
          attrs.type = e.type === "email_text_input" ? "email" : e.type === "url_text_input" ? "url" : "text";
        if (e.multiline) {
          delete attrs.type;
          delete attrs.value;
          control = el("textarea", attrs);
          control.value = value;
        } else control = el("input", attrs);
        control.addEventListener("input", () => {
          setDraft(viewId, blockId, e.action_id, control.value === "" ? null : control.value);
        });
        if (block.dispatch_action) {
          control.addEventListener("keydown", (ev) => {
            if (ev.key === "Enter" && !e.multiline) dispatchFromInput(control.value);
          });
        }
        break;
      }
      case "static_select":
      case "users_select":
      case "conversations_select":
      case "channels_select": {
        control = nativeSelect(e, ctx, has ? current : undefined);
        control.id = id;
        control.addEventListener("change", () => set(control.value || null));
        break;
      }
      case "external_select":
      case "multi_external_select":
      case "multi_static_select":
        control = combo(
          e,
          blockId,
          ctx,
          (values) => set(e.type === "external_select" ? values[0] || null : values),
          has ? current : undefined,
        );
        break;
      case "datepicker":
      case "timepicker": {
        control = el("input", {
          id: id,
          class: "bk-date",
          type: e.type === "datepicker" ? "date" : "time",
          value: has ? current || "" : initialOf(e) || "",
          "data-action-id": e.action_id,
        });
        control.addEventListener("change", () => set(control.value || null));
        break;
      }
      case "datetimepicker": {
        control = el("input", {
          id: id,
          class: "bk-date",
          type: "datetime-local",
          value: localDateTime(has ? current : e.initial_date_time),
          "data-action-id": e.action_id,
        });
        control.addEventListener("change", () => set(toSeconds(control.value)));
        break;
      }
      case "checkboxes":
      case "radio_buttons":
        control = choices(e, has ? current : null, set);
        break;
      default:
        control = el("div", { class: "bk-unsupported", text: `[${e.type} input]` });
    }
    const error = errors[blockId];
    return el(
      "div",
      { class: `bk-input-block${error ? " has-error" : ""}`, "data-block-id": blockId },
      el(
        "label",
        { class: "bk-label", for: id },
        plain(block.label),
        block.optional ? el("span", { class: "optional", text: " (optional)" }) : null,
      ),
      control,
      error ? el("div", { class: "bk-error", role: "alert", text: error }) : null,
      block.hint ? el("div", { class: "bk-hint" }, textObj(block.hint)) : null,
    );
  }

  /** What the user typed or picked in every input of the view, for the submission. */
  function collect(view) {
    const values = {};
    (view.blocks || []).forEach((block, index) => {
      if (block.type !== "input" || !block.element) return;
      const blockId = blockIdOf(block, index);
      const actionId = block.element.action_id;
      const value = draftValue(view.id, blockId, actionId);
      if (value === undefined) return; // untouched: Slack sends the initial value
      values[blockId] = {};
      values[blockId][actionId] = value;
    });
    return values;
  }

  function renderModal() {
    const layer = $("#modal-layer");
    const modals = S.state?.modals || [];
    const top = modals[modals.length - 1];
    const sig = top ? `${top.id}|${top.view.hash}|${JSON.stringify(top.errors)}` : "";
    if (sig === S.modalSig) return;
    const wasOpen = S.modalSig !== "";
    S.modalSig = sig;
    layer.innerHTML = "";
    if (!top) {
      if (wasOpen) restoreScroll();
      return;
    }
    if (!wasOpen) saveScroll();
    const view = top.view;
    const ctx = { viewId: top.id, errors: top.errors };
    const submit = el("button", { class: "bk-btn primary", type: "submit" }, plain(view.submit) || "Submit");
    const closeText = plain(view.close) || (modals.length > 1 ? "Back" : "Cancel");
    const form = el(
      "form",
      {
        class: "modal",
        role: "dialog",
        "aria-modal": "true",
        "aria-label": plain(view.title),
        "data-view-id": top.id,
      },
      el(
        "div",
        { class: "modal-head" },
        el("h2", null, textObj(view.title)),
        el("button", {
          class: "x",
          type: "button",
          title: "Close",
          text: "\u00d7",
          onclick: () => closeView(modals[0].id),
        }),
      ),
      el("div", { class: "modal-body" }, renderBlocks(view.blocks, ctx)),
      el(
        "div",
        { class: "modal-foot" },
        el("button", { class: "bk-btn", type: "button", text: closeText, onclick: () => closeView(top.id) }),
        view.submit ? submit : null,
      ),
    );
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      submit.disabled = true;
      api("/sandbox/submit", { viewId: top.id, values: collect(view) }).then((res) => {
        submit.disabled = false;
        if (!res.ok) toast(res.error || t("submitFailed"));
      });
    });
    layer.appendChild(el("div", { class: "overlay" }, form));
    const firstError = $(".has-error input, .has-error textarea, .has-error select", form);
    if (firstError) firstError.focus();
  }

  function closeView(viewId) {
    api("/sandbox/close", { viewId: viewId }).then((res) => {
      if (!res.ok) toast(res.error || t("closeFailed"));
    });
  }

  /** Where the message list was when a dialog opened: it is there again when the dialog closes. */
  function saveScroll() {
    const list = $("#messages");
    S.scrollBeforeDialog = {
      top: list.scrollTop,
      atBottom: list.scrollHeight - list.scrollTop - list.clientHeight < 40,
    };
  }

  function restoreScroll() {
    const saved = S.scrollBeforeDialog;
    S.scrollBeforeDialog = null;
    if (!saved) return;
    const list = $("#messages");
    // At the bottom before: at the (new) bottom now, so an answer posted meanwhile shows.
    list.scrollTop = saved.atBottom ? list.scrollHeight : saved.top;
  }

  /** Escape closes the confirmation if one is open, else the modal (as its × does). */
  function closeDialogOnEscape(ev) {
    if (ev.key !== "Escape" || ev.defaultPrevented) return;
    if (S.denyConfirm) {
      ev.preventDefault();
      S.denyConfirm();
      return;
    }
    const modals = S.state?.modals || [];
    if (modals.length > 0) {
      ev.preventDefault();
      closeView(modals[0].id);
    }
  }

  function confirmDialog(confirm) {
    return new Promise((resolve) => {
      const layer = $("#confirm-layer");
      const done = (yes) => {
        S.denyConfirm = null;
        layer.innerHTML = "";
        resolve(yes);
      };
      S.denyConfirm = () => done(false);
      const style = confirm.style === "danger" ? "bk-btn danger solid" : "bk-btn primary";
      layer.appendChild(
        el(
          "div",
          { class: "overlay confirm" },
          el(
            "div",
            { class: "modal", role: "alertdialog", "aria-modal": "true", "aria-label": plain(confirm.title) },
            el("div", { class: "modal-head" }, el("h2", null, textObj(confirm.title))),
            el("div", { class: "modal-body" }, textObj(confirm.text, "div")),
            el(
              "div",
              { class: "modal-foot" },
              el("button", {
                class: "bk-btn",
                type: "button",
                text: plain(confirm.deny) || "Cancel",
                onclick: () => done(false),
              }),
              el("button", {
                class: style,
                type: "button",
                text: plain(confirm.confirm) || "Yes",
                onclick: () => done(true),
              }),
            ),
          ),
        ),
      );
    });
  }

  // ------------------------------------------------------------------ messages

  function initials(name) {
    return (
      String(name || "?")
        .split(/\s+/)
        .map((w) => w[0])
        .join("")
        .slice(0, 2)
        .toUpperCase() || "?"
    );
  }

  function timeOfTs(ts) {
    return new Date(Number(ts) * 1000).toLocaleTimeString([], { hour: "numeric", minute: "2-digit" });
  }

  function fileView(f) {
    if (f.isImage) {
      return el(
        "div",
        { class: "file-image" },
        el("a", {
          class: "file-title",
          href: withToken(`${f.url}&download=1`),
          download: f.name,
          text: f.title || f.name,
        }),
        el(
          "a",
          { href: withToken(f.url), target: "_blank" },
          el("img", { src: withToken(f.url), alt: f.title || f.name }),
        ),
      );
    }
    const ext = (f.name.split(".").pop() || "file").toUpperCase().slice(0, 4);
    return el(
      "a",
      { class: "file-card", href: withToken(`${f.url}&download=1`), download: f.name },
      el("span", { class: "file-icon", text: ext }),
      el(
        "span",
        null,
        el("b", { text: f.title || f.name }),
        el("small", { text: `${f.name} \u00b7 ${size(f.size)}` }),
      ),
    );
  }

  function size(bytes) {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1048576) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / 1048576).toFixed(1)} MB`;
  }

  function renderMessage(m, channel, replies) {
    const ctx = { channel: channel, ts: m.ts };
    const node = el(
      "div",
      {
        class: `msg${m.ephemeral ? " ephemeral" : ""}`,
        "data-ts": m.ts,
        "data-ephemeral": m.ephemeral ? "true" : null,
      },
      el("div", { class: `avatar${m.slackbot ? " slackbot" : ""}`, text: initials(m.userName) }),
    );
    const body = el(
      "div",
      { class: "msg-body" },
      el(
        "div",
        { class: "msg-meta" },
        el("span", { class: "name", text: m.userName }),
        m.isBot ? el("span", { class: "app", text: "APP" }) : null,
        el("time", { text: timeOfTs(m.ts), title: new Date(Number(m.ts) * 1000).toString() }),
        m.edited ? el("span", { class: "edited", text: "(edited)" }) : null,
      ),
    );
    if (m.ephemeral)
      append(body, el("div", { class: "ephemeral-note", text: "\ud83d\udc41 Only visible to you" }));
    if (m.blocks && m.blocks.length > 0) append(body, renderBlocks(m.blocks, ctx));
    else if (m.text) append(body, textObj({ type: "mrkdwn", text: m.text }, "div"));
    if (m.files && m.files.length > 0) append(body, el("div", { class: "files" }, m.files.map(fileView)));
    if (replies && replies.length > 0) {
      const open = !!S.expanded[m.ts];
      append(
        body,
        el("button", {
          class: "thread-link",
          type: "button",
          text: open ? "Hide replies" : replies.length + (replies.length === 1 ? " reply" : " replies"),
          onclick: () => {
            S.expanded[m.ts] = !open;
            renderMessages(true);
          },
        }),
      );
      if (open)
        append(
          body,
          el(
            "div",
            { class: "thread" },
            replies.map((r) => renderMessage(r, channel, null)),
          ),
        );
    }
    node.appendChild(body);
    return node;
  }

  function renderMessages(force) {
    const list = $("#messages");
    const channel = S.active;
    const all = (S.state.messages[channel] || []).concat(S.notices[channel] || []);
    const byTs = {};
    all.forEach((m) => {
      byTs[m.ts] = m;
    });
    const tops = [];
    const replies = {};
    all.forEach((m) => {
      if (m.threadTs && m.threadTs !== m.ts && byTs[m.threadTs]) {
        replies[m.threadTs] ??= [];
        replies[m.threadTs].push(m);
      } else tops.push(m);
    });
    tops.sort((a, b) => Number(a.ts) - Number(b.ts));
    const atBottom = isAtBottom(list);
    const sameChannel = S.nodesChannel === channel;
    const anchor = sameChannel && !atBottom ? readingAnchor(list) : null;
    const keep = {};
    const children = [];
    const arrived = []; // messages new or changed since the last render (not just redrawn)
    tops.forEach((m) => {
      const key = `${channel}|${m.ts}`;
      const sig = JSON.stringify([m, replies[m.ts] || null, !!S.expanded[m.ts]]);
      const old = S.nodes[key];
      let node;
      if (old && old.sig === sig && !force) node = old.node;
      else {
        node = renderMessage(m, channel, replies[m.ts]);
        if (old && old.revisions !== m.revisions) node.classList.add("flash");
      }
      if (sameChannel && (!old || old.sig !== sig)) arrived.push(node);
      keep[key] = { sig: sig, node: node, revisions: m.revisions, ts: m.ts };
      children.push(node);
    });
    S.nodes = keep;
    S.nodesChannel = channel;
    if (children.length === 0) {
      list.replaceChildren(el("div", { class: "empty", text: emptyText() }));
      showNewBelow(false);
      return;
    }
    list.replaceChildren.apply(list, children);
    if (atBottom || force === "bottom") {
      list.scrollTop = list.scrollHeight;
      showNewBelow(false);
      return;
    }
    if (anchor) keepReading(list, anchor);
    // Something arrived or changed below what the reader sees: say so, as Slack does.
    const visibleEnd = list.getBoundingClientRect().bottom;
    if (arrived.some((node) => node.getBoundingClientRect().top >= visibleEnd)) showNewBelow(true);
  }

  function isAtBottom(list) {
    return list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  }

  /** The first message the reader sees, and how far its top is from the list's top. */
  function readingAnchor(list) {
    const top = list.getBoundingClientRect().top;
    for (const node of list.children) {
      const box = node.getBoundingClientRect();
      if (box.bottom > top && node.dataset.ts)
        return { ts: node.dataset.ts, offset: box.top - top, scrollTop: list.scrollTop };
    }
    return { ts: null, offset: 0, scrollTop: list.scrollTop };
  }

  /**
   * The list re-rendered while the reader was not at the bottom: the message they were reading
   * stays where it was on screen, whatever changed above it (or the same scroll offset, if it is gone).
   */
  function keepReading(list, anchor) {
    list.scrollTop = anchor.scrollTop;
    const node = anchor.ts ? S.nodes[`${S.active}|${anchor.ts}`]?.node : null;
    if (!node?.isConnected) return;
    const offset = node.getBoundingClientRect().top - list.getBoundingClientRect().top;
    list.scrollTop += offset - anchor.offset;
  }

  /** The "new messages below" marker over the end of the list; clicking it goes to the bottom. */
  function showNewBelow(show) {
    let marker = $("#new-below");
    if (!marker) {
      if (!show) return;
      const list = $("#messages");
      marker = el("button", {
        id: "new-below",
        class: "new-below",
        type: "button",
        text: "New messages \u2193",
        onclick: () => {
          list.scrollTop = list.scrollHeight;
          showNewBelow(false);
        },
      });
      list.after(marker);
      list.addEventListener("scroll", () => {
        if (isAtBottom(list)) showNewBelow(false);
      });
    }
    marker.hidden = !show;
  }

  function emptyText() {
    const ch = channelById(S.active);
    if (ch && ch.kind === "dm") return t("emptyDm");
    if (ch && ch.name === "alerts") return t("emptyAlerts");
    const plate = S.state?.examplePlate;
    return t("emptyChannel", plate || t("plateHint"));
  }

  function renderHome() {
    const home = $("#home");
    const view = S.state.home;
    const sig = view ? `${view.id}|${view.hash}` : "none";
    if (sig === S.homeSig) return;
    S.homeSig = sig;
    home.replaceChildren(
      view
        ? renderBlocks(view.blocks, { viewId: view.id, errors: {} })
        : el("div", { class: "empty", text: t("loadingHome") }),
    );
  }

  // ------------------------------------------------------------------ layout

  function channelById(id) {
    return (S.state?.channels || []).filter((c) => c.id === id)[0];
  }

  function topLevelCount(id) {
    return (S.state.messages[id] || []).filter((m) => !m.threadTs || m.threadTs === m.ts).length;
  }

  function renderSidebar() {
    const nav = $("#nav");
    const items = [el("div", { class: "nav-title", text: "Channels" })];
    let dmTitle = false;
    S.state.channels.forEach((c) => {
      if (c.kind === "dm" && !dmTitle) {
        dmTitle = true;
        items.push(el("div", { class: "nav-title", text: "Direct messages" }));
      }
      const count = topLevelCount(c.id);
      if (c.id === S.active) S.seen[c.id] = count;
      const unread = Math.max(0, count - (S.seen[c.id] || 0));
      items.push(
        el(
          "button",
          {
            class: `nav-item${c.id === S.active ? " active" : ""}${unread > 0 ? " unread" : ""}`,
            type: "button",
            "data-channel": c.id,
            onclick: () => select(c.id),
          },
          c.kind === "dm" ? el("span", { class: "presence" }) : el("span", { class: "hash", text: "#" }),
          el("span", { text: c.name }),
          unread > 0 ? el("span", { class: "count", text: String(unread) }) : null,
        ),
      );
    });
    nav.replaceChildren.apply(nav, items);
    $("#me").textContent = `${S.state.user.realName} \u00b7 ${S.state.user.tz}`;
    $("#team").firstChild.textContent = S.state.team.name;
  }

  function renderHeader() {
    const c = channelById(S.active);
    const head = $("#channel-header");
    const title = c ? (c.kind === "dm" ? c.name : `# ${c.name}`) : "";
    const topic =
      c && c.kind === "dm" ? t("topicDm") : c && c.name === "alerts" ? t("topicAlerts") : t("topicGeneral");
    const parts = [el("h1", { text: title })];
    if (c && c.kind === "dm") {
      parts.push(
        el(
          "div",
          { class: "tabs", role: "tablist" },
          el("button", {
            class: `tab${S.tab === "home" ? " active" : ""}`,
            type: "button",
            role: "tab",
            text: "Home",
            onclick: () => openTab("home"),
          }),
          el("button", {
            class: `tab${S.tab === "messages" ? " active" : ""}`,
            type: "button",
            role: "tab",
            text: "Messages",
            onclick: () => openTab("messages"),
          }),
        ),
      );
    }
    parts.push(el("span", { class: "topic", text: topic }));
    head.replaceChildren.apply(head, parts);
    const homeTab = c && c.kind === "dm" && S.tab === "home";
    $("#messages").hidden = homeTab;
    $("#composer").hidden = homeTab;
    $("#home").hidden = !homeTab;
    $("#composer-input").placeholder = c
      ? `Message ${c.kind === "dm" ? c.name : `#${c.name}`} \u2014 type / for commands`
      : "";
  }

  function renderViolations() {
    const box = $("#violations");
    const list = S.state.violations || [];
    box.hidden = list.length === 0;
    if (list.length > 0) {
      const last = list[list.length - 1];
      box.textContent = t("violation", last.source, last.error, last.reasons[0] || "");
    }
  }

  function select(id) {
    if (S.active === id) return;
    S.active = id;
    S.tab = "messages";
    S.nodes = {};
    history.replaceState(null, "", `#${id}`);
    render("bottom");
    $("#composer-input").focus();
  }

  function openTab(tab) {
    S.tab = tab;
    render();
    if (tab === "home") {
      S.homeSig = "";
      api("/sandbox/home", {}).then((res) => {
        if (!res.ok) toast(res.error || t("homeFailed"));
      });
    } else renderMessages("bottom");
  }

  function render(scroll) {
    if (!S.state) return;
    if (!channelById(S.active)) S.active = S.state.channels[0]?.id;
    renderSidebar();
    renderHeader();
    if (S.tab === "home" && channelById(S.active).kind === "dm") {
      renderHome();
      showNewBelow(false);
    } else renderMessages(scroll);
    renderModal();
    renderViolations();
  }

  // ------------------------------------------------------------------ composer

  let hintIndex = -1;

  function matchingCommands(text) {
    const typed = text.trim().toLowerCase().replace(/\s+/g, " ");
    return S.state.commands.filter((c) => {
      const s = c.syntax.toLowerCase();
      if (typed === "/" || s.indexOf(typed) === 0) return true;
      const head = s.split(/ [<[]/)[0];
      if (typed.indexOf(`${head} `) === 0 || typed === head) return true;
      // The other language's words of the command (both always work): `/fleet where` finds `/fleet unde`.
      return (c.others || []).some((word) => {
        const other = `${c.command} ${word.toLowerCase()}`;
        return other.indexOf(typed) === 0 || typed.indexOf(`${other} `) === 0 || typed === other;
      });
    });
  }

  function renderHints() {
    const box = $("#hints");
    const text = $("#composer-input").value;
    if (!S.state || text[0] !== "/" || document.activeElement !== $("#composer-input")) {
      box.hidden = true;
      return;
    }
    const list = matchingCommands(text);
    if (list.length === 0) {
      box.hidden = true;
      return;
    }
    if (hintIndex >= list.length) hintIndex = list.length - 1;
    box.replaceChildren.apply(
      box,
      [el("div", { class: "hints-title", text: `Commands matching \u201c${text.trim()}\u201d` })].concat(
        list.map((c, i) =>
          el(
            "button",
            {
              class: `hint${i === hintIndex ? " hl" : ""}`,
              type: "button",
              title: `e.g. ${c.example}`,
              onmousedown: (ev) => {
                ev.preventDefault();
                completeHint(c);
              },
            },
            el("b", { text: c.syntax }),
            el("span", { text: c.does }),
          ),
        ),
      ),
    );
    box.hidden = false;
  }

  function completeHint(c) {
    const input = $("#composer-input");
    const head = c.syntax.split(/ [<[|]/)[0].split("|")[0];
    input.value = `${head} `;
    hintIndex = -1;
    input.focus();
    renderHints();
  }

  function notice(channel, text) {
    S.notices[channel] ??= [];
    const list = S.notices[channel];
    list.push({
      ts: (Date.now() / 1000).toFixed(6),
      user: "USLACKBOT",
      userName: "Slackbot",
      slackbot: true,
      isBot: false,
      text: text,
      ephemeral: true,
      edited: false,
      revisions: 0,
      replyCount: 0,
    });
    renderMessages("bottom");
  }

  function sendCommand(text) {
    const channel = S.active;
    const foot = $("#composer-foot");
    foot.textContent = t("sending", text.split(" ").slice(0, 2).join(" "));
    return api("/sandbox/command", { channel: channel, text: text }).then((res) => {
      foot.textContent = footText();
      if (!res.ok) notice(channel, res.error || t("commandFailed"));
    });
  }

  function footText() {
    return t("foot");
  }

  function setupComposer() {
    const input = $("#composer-input");
    $("#composer-foot").textContent = footText();
    input.addEventListener("input", () => {
      hintIndex = -1;
      renderHints();
    });
    input.addEventListener("focus", renderHints);
    input.addEventListener("blur", () => {
      setTimeout(renderHints, 100);
    });
    input.addEventListener("keydown", (ev) => {
      const list = input.value[0] === "/" && S.state ? matchingCommands(input.value) : [];
      if ((ev.key === "ArrowDown" || ev.key === "ArrowUp") && list.length > 0) {
        ev.preventDefault();
        hintIndex = (hintIndex + (ev.key === "ArrowDown" ? 1 : -1) + list.length) % list.length;
        renderHints();
      } else if (ev.key === "Tab" && list.length > 0) {
        ev.preventDefault();
        completeHint(list[hintIndex >= 0 ? hintIndex : 0]);
      } else if (ev.key === "Enter" && hintIndex >= 0 && list[hintIndex]) {
        ev.preventDefault();
        completeHint(list[hintIndex]);
      } else if (ev.key === "Escape") {
        if (!$("#hints").hidden) ev.preventDefault();
        hintIndex = -1;
        $("#hints").hidden = true;
      }
    });
    $("#composer").addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      input.value = "";
      hintIndex = -1;
      renderHints();
      if (text[0] !== "/") {
        notice(S.active, t("plainMessage"));
        return;
      }
      sendCommand(text);
    });
  }

  // ------------------------------------------------------------------ simulator panel

  const STATUS_LABELS = { InProgress: "In progress", AutoCompleted: "Auto-completed" };
  const txBad = {
    Error: 1,
    NoGPSCoordinates: 1,
    OldData: 1,
    NotInRomania: 1,
    WithoutTransmission: 1,
    MissingETransportConfiguration: 1,
  };

  function loadTransports() {
    return api(`/sandbox/transports?lang=${S.lang}`).then(renderTransports);
  }

  // The bot's next alert check, counted down on the server's clock (the page's may be off).
  const alertCheck = { at: null, offset: 0, loading: false };

  function loadAlertSchedule() {
    if (alertCheck.loading) return Promise.resolve();
    alertCheck.loading = true;
    return api("/sandbox/alert-schedule")
      .then((res) => {
        alertCheck.at = res.ok && typeof res.nextCheckAt === "number" ? res.nextCheckAt : null;
        alertCheck.offset = typeof res.now === "number" ? res.now - Date.now() : 0;
      })
      .catch(() => undefined)
      .then(() => {
        alertCheck.loading = false;
        showNextCheck();
      });
  }

  function showNextCheck() {
    const line = $("#sim-next");
    if (alertCheck.at === null) {
      line.hidden = true;
      return;
    }
    const left = Math.ceil((alertCheck.at - (Date.now() + alertCheck.offset)) / 1000);
    line.hidden = false;
    line.textContent = left > 0 ? t("nextCheck", left) : t("checkUnderWay");
    // The tick has come: the schedule says when the one after it is.
    if (left <= 0) loadAlertSchedule();
  }

  function renderTransports(res) {
    const panel = $("#simulator");
    if (!res?.simulator) {
      panel.hidden = true;
      $("#sim-toggle").hidden = true;
      return;
    }
    const list = $("#sim-list");
    if (res.transports.length === 0) {
      list.replaceChildren(
        el("div", {
          class: "sim-row",
          text: t("noTransports"),
        }),
      );
      return;
    }
    list.replaceChildren.apply(
      list,
      res.transports.map((tr) => {
        const cls = `tx${txBad[tr.transmission] ? " bad" : tr.transmission === "Active" ? "" : " idle"}`;
        // In Romanian, the status and the transmission as fleetbot's Romanian names them (the server's).
        const ro = S.lang === "ro";
        const status = (to, label) =>
          el("button", {
            type: "button",
            text: label,
            "data-status": to,
            onclick: () => {
              api("/sandbox/simulate", { codeUit: tr.codeUit, status: to, lang: S.lang }).then((r) => {
                if (!r.ok) toast(r.error || t("simRefused"));
                else {
                  toast(to === "error" ? t("movedToError", tr.plate) : t("restored", tr.plate));
                  renderTransports({ simulator: true, transports: r.transports });
                }
              });
            },
          });
        const force = (code, label) =>
          el("button", {
            type: "button",
            text: label,
            "data-code": code,
            onclick: () => {
              api("/sandbox/simulate", {
                codeUit: tr.codeUit,
                transmissionStatusCode: code,
                lang: S.lang,
              }).then((r) => {
                if (!r.ok) toast(r.error || t("simRefused"));
                else {
                  toast(t("forcedToast", tr.plate, code));
                  renderTransports({ simulator: true, transports: r.transports });
                }
              });
            },
          });
        return el(
          "div",
          { class: "sim-row", "data-uit": tr.codeUit },
          el(
            "div",
            { class: "line" },
            el("span", { class: "plate", text: tr.plate }),
            el("span", { class: "uit", text: tr.codeUit }),
            el("span", {
              class: cls,
              text: ro && tr.transmissionText ? tr.transmissionText : tr.transmission,
              title: tr.transmission,
            }),
          ),
          el(
            "div",
            { class: "line" },
            el("span", { text: ro && tr.statusText ? tr.statusText : STATUS_LABELS[tr.status] || tr.status }),
            tr.forced ? el("span", { class: "forced", text: t("forced", tr.forced) }) : null,
          ),
          el(
            "div",
            { class: "btns" },
            force("Error", t("forceError")),
            force("NoGPSCoordinates", t("forceNoGps")),
            force("Active", t("forceActive")),
            tr.forced ? force("clear", t("release")) : null,
            // Status Error: the real service stops listing the transport (it hides Error ones).
            tr.status === "Error" ? status("restore", t("restore")) : status("error", t("moveToError")),
          ),
        );
      }),
    );
  }

  // ------------------------------------------------------------------ simulator panel: vehicles

  // The vehicle buttons in the panel's order: [action of POST /sandbox/vehicle, word key].
  const VEHICLE_BUTTONS = [
    ["cutPower", "actCutPower"],
    ["restorePower", "actRestorePower"],
    ["enterZone", "actEnterZone"],
    ["leaveZone", "actLeaveZone"],
    ["idle", "actIdle"],
    ["speed", "actSpeed"],
    ["silent", "actSilent"],
    ["tow", "actTow"],
    ["warmReefer", "actWarmReefer"],
    ["normal", "actNormal"],
  ];
  const DONE_WORDS = {
    cutPower: "doneCutPower",
    restorePower: "doneRestorePower",
    enterZone: "doneEnterZone",
    leaveZone: "doneLeaveZone",
    idle: "doneIdle",
    speed: "doneSpeed",
    silent: "doneSilent",
    tow: "doneTow",
    warmReefer: "doneWarmReefer",
    normal: "doneNormal",
  };
  // The fleet as the simulator reports it, the demo zone, and the vehicle picked in the panel.
  const fleet = { vehicles: [], zone: null, picked: null };

  function loadVehicles() {
    return api("/sandbox/vehicles")
      .then(renderVehicles)
      .catch(() => undefined);
  }

  function zoneName() {
    return fleet.zone ? fleet.zone.name : "";
  }

  /** The panel's Vehicles part, made once above the transports (page.ts has no place for it). */
  function vehicleSection() {
    const existing = $("#sim-vehicles");
    if (existing) return existing;
    const section = el("section", {
      class: "sim-vehicles",
      id: "sim-vehicles",
      "aria-labelledby": "sim-vehicles-title",
    });
    $("#simulator").insertBefore(section, $("#sim-list"));
    return section;
  }

  function renderVehicles(res) {
    if (!res?.simulator || !res.vehicles || res.vehicles.length === 0) {
      const section = $("#sim-vehicles");
      if (section) section.hidden = true;
      return;
    }
    fleet.vehicles = res.vehicles;
    fleet.zone = res.zone || null;
    if (!fleet.vehicles.some((v) => v.vehicleId === fleet.picked)) fleet.picked = fleet.vehicles[0].vehicleId;
    drawVehicles();
  }

  /** What the simulator forces on a vehicle, in words ("" when it follows its day plan). */
  function controlsText(c) {
    const parts = [];
    if (c.power === "cut") parts.push(t("ctlPower"));
    if (c.motion === "place") parts.push(t("ctlPlace"));
    if (c.motion === "idle") parts.push(t("ctlIdle"));
    if (c.motion === "speed") parts.push(t("ctlSpeed", c.speedKmh));
    if (c.motion === "tow") parts.push(t("ctlTow"));
    if (c.silent) parts.push(t("ctlSilent"));
    if (typeof c.reeferTemperature === "number") parts.push(t("ctlReefer", c.reeferTemperature));
    if (c.isPrivate) parts.push(t("ctlPrivate"));
    return parts.length ? t("forcedControls", parts.join(", ")) : "";
  }

  function vehiclePicker() {
    // A refresh must not close the list while the user is choosing in it.
    const open = $("#sim-vehicle");
    if (open && document.activeElement === open) return open;
    return el(
      "select",
      {
        id: "sim-vehicle",
        onchange: (ev) => {
          fleet.picked = Number(ev.target.value);
          drawVehicles();
        },
      },
      fleet.vehicles.map((v) =>
        el("option", {
          value: v.vehicleId,
          selected: v.vehicleId === fleet.picked,
          text: `${v.plate} \u00b7 ${v.name}${v.reefer ? ` \u00b7 ${t("reeferTag")}` : ""}`,
        }),
      ),
    );
  }

  function drawVehicles() {
    const section = vehicleSection();
    section.hidden = false;
    const picked = fleet.vehicles.find((v) => v.vehicleId === fleet.picked);
    const forced = picked ? controlsText(picked.controls || {}) : "";
    // replaceChildren would write a null as the text "null": only the parts there are.
    const parts = [
      el("h3", { id: "sim-vehicles-title", text: t("vehiclesTitle") }),
      el("p", { class: "sim-note", text: t("vehiclesIntro") }),
      el("label", { class: "sim-pick" }, el("span", { text: t("pickVehicle") }), vehiclePicker()),
      picked
        ? el("p", { class: "sim-vehicle-state", id: "sim-vehicle-state", text: t("vehicleState", picked) })
        : null,
      forced ? el("p", { class: "forced", id: "sim-vehicle-forced", text: forced }) : null,
      picked
        ? el(
            "div",
            { class: "btns" },
            VEHICLE_BUTTONS.filter(([action]) => action !== "warmReefer" || picked.reefer).map(
              ([action, key]) =>
                el("button", {
                  type: "button",
                  "data-vehicle-action": action,
                  text: t(key, zoneName()),
                  onclick: () => runVehicleAction(picked, action),
                }),
            ),
          )
        : null,
    ];
    section.replaceChildren(...parts.filter((part) => part !== null));
  }

  function runVehicleAction(vehicle, action) {
    return api("/sandbox/vehicle", { vehicleId: vehicle.vehicleId, action: action }).then((r) => {
      if (!r.ok) {
        toast(r.error || t("simRefused"));
        return;
      }
      const done = r.step === "parked" ? "doneTowLater" : DONE_WORDS[action];
      toast(t("vehicleDone", vehicle.plate, t(done, zoneName(), r.vehicle)));
      if (r.vehicle) {
        fleet.vehicles = fleet.vehicles.map((v) => (v.vehicleId === r.vehicle.vehicleId ? r.vehicle : v));
        drawVehicles();
      }
    });
  }

  // ------------------------------------------------------------------ language switch

  function storedLanguage() {
    try {
      const value = localStorage.getItem(LANGUAGE_KEY);
      return value === "en" || value === "ro" ? value : null;
    } catch {
      return null;
    }
  }

  /** The page's own words in `lang`, remembered across a reload (the bot remembers its own). */
  function setLanguage(lang) {
    const changed = S.lang !== lang;
    S.lang = lang;
    try {
      localStorage.setItem(LANGUAGE_KEY, lang);
    } catch {
      // No storage (a private window): the server still tells the page while it runs.
    }
    applyChrome();
    if (!changed) return;
    $("#composer-foot").textContent = footText();
    render();
    loadTransports();
    loadVehicles();
    showNextCheck();
  }

  /** Writes the page's static words (`data-t` in page.ts) and the switch's state in S.lang. */
  function applyChrome() {
    document.documentElement.lang = S.lang;
    document.querySelectorAll("[data-t]").forEach((node) => {
      // Trusted constants of WORDS (the banner has <code> in it), never data.
      node.innerHTML = t(node.getAttribute("data-t"));
    });
    document.querySelectorAll("[data-t-title]").forEach((node) => {
      node.title = t(node.getAttribute("data-t-title"));
    });
    document.querySelectorAll("#lang-switch button").forEach((button) => {
      const lang = button.getAttribute("data-language");
      button.setAttribute("aria-pressed", lang === S.lang ? "true" : "false");
      button.title = t("languageTitle", LANGUAGE_NAMES[lang]);
    });
  }

  /**
   * The switch acts as the user: `/fleet language ro|en`, sent like any command (signed, through
   * the fake Slack) in the open conversation; fleetbot stores it and confirms it there, and from
   * then on everything it says to this user is in that language.
   */
  function chooseLanguage(lang) {
    const buttons = document.querySelectorAll("#lang-switch button");
    buttons.forEach((b) => {
      b.disabled = true;
    });
    return api("/sandbox/language", { language: lang, channel: S.active })
      .then((res) => {
        if (!res.ok) {
          toast(t("languageFailed", res.error || `HTTP ${res.httpStatus}`));
          return;
        }
        S.serverLang = lang;
        setLanguage(lang);
        // The Home tab is the bot's: opened again, it is written in the new language.
        if (S.tab === "home") openTab("home");
      })
      .catch(() => toast(t("languageFailed", "network")))
      .then(() => {
        buttons.forEach((b) => {
          b.disabled = false;
        });
      });
  }

  function setupLanguageSwitch() {
    const known = document.documentElement.getAttribute("data-language");
    S.lang = known === "en" || known === "ro" ? known : storedLanguage() || "en";
    applyChrome();
    document.querySelectorAll("#lang-switch button").forEach((button) => {
      button.addEventListener("click", () => {
        const lang = button.getAttribute("data-language");
        // Pressed and already the bot's (as the server knows it): nothing to send.
        if (lang === S.lang && S.serverLang === lang) return;
        chooseLanguage(lang);
      });
    });
  }

  /** A language chosen through the page some other way (typed in the composer, another tab). */
  function adoptServerLanguage(lang) {
    if (lang === S.serverLang) return;
    S.serverLang = lang;
    if (lang === "en" || lang === "ro") setLanguage(lang);
  }

  // ------------------------------------------------------------------ sync

  function refresh() {
    if (S.fetching) {
      S.dirty = true;
      return;
    }
    S.fetching = true;
    api("/sandbox/state")
      .then((state) => {
        if (state?.channels) {
          const first = !S.state;
          S.state = state;
          S.version = state.version;
          if (first) {
            const wanted = location.hash.slice(1);
            S.active = channelById(wanted) ? wanted : state.channels[0]?.id;
          }
          adoptServerLanguage(state.language);
          render(first ? "bottom" : undefined);
        }
      })
      .catch(() => undefined)
      .then(() => {
        S.fetching = false;
        if (S.dirty) {
          S.dirty = false;
          refresh();
        }
      });
  }

  function subscribe() {
    let simTimer = null;
    const onVersion = (version) => {
      if (version !== S.version) refresh();
      clearTimeout(simTimer);
      simTimer = setTimeout(loadTransports, 200);
    };
    if (window.EventSource) {
      const source = new EventSource(withToken("/sandbox/events"));
      source.addEventListener("version", (ev) => {
        onVersion(JSON.parse(ev.data).version);
      });
      return;
    }
    const poll = () => {
      api(`/sandbox/state?since=${S.version}`)
        .then((state) => {
          if (state && state.version !== S.version) onVersion(state.version);
        })
        .catch(() => undefined)
        .then(() => setTimeout(poll, 200));
    };
    poll();
  }

  // Until the bot holds the demo account's vehicle list, the page says it is connecting (page.ts).
  function followFleetStatus() {
    const line = $("#fleet-status");
    if (!line || line.hidden) return;
    api("/sandbox/fleet-status")
      .then((res) => {
        const status = res?.ok ? res.status : "connecting";
        line.dataset.status = status;
        line.hidden = status === "ready";
        const words = line.querySelector("[data-t]");
        if (words) {
          const key = status === "failed" ? "fleetFailed" : "fleetConnecting";
          words.setAttribute("data-t", key);
          words.textContent = t(key);
        }
      })
      .catch(() => undefined)
      .then(() => {
        if (!line.hidden) setTimeout(followFleetStatus, 1000);
      });
  }

  function start() {
    followFleetStatus();
    setupLanguageSwitch();
    setupComposer();
    document.addEventListener("keydown", closeDialogOnEscape);
    $("#sim-toggle").addEventListener("click", () => {
      const panel = $("#simulator");
      panel.hidden = !panel.hidden;
    });
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    api("/sandbox/timezone", { timeZone: zone })
      .catch(() => undefined)
      .then(() => {
        refresh();
        loadTransports();
        subscribe();
        setInterval(loadTransports, 15000);
        loadVehicles();
        setInterval(loadVehicles, 15000);
        loadAlertSchedule();
        setInterval(showNextCheck, 1000);
      });
  }

  start();
})();
