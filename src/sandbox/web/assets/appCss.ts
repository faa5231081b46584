/**
 * The sandbox page's style sheet, served as /sandbox/app.css.
 *
 * A string module rather than a file beside it: `npm run build` emits only compiled TypeScript to
 * dist/ (the Docker image ships dist/ alone), and a string travels with it.
 * It must contain no backtick and no dollar-brace.
 */
export const APP_CSS = `/* fleetbot sandbox: a Slack-like channel view. No external fonts or images. */
:root {
  --aubergine: #3f0e40;
  --aubergine-dark: #350d36;
  --aubergine-hover: #4d1a4e;
  --active: #1164a3;
  --text: #1d1c1d;
  --muted: #616061;
  --border: #dddddd;
  --link: #1264a3;
  --green: #007a5a;
  --green-dark: #148567;
  --red: #e01e5a;
  --red-dark: #b3003c;
  --code-bg: #f8f8f8;
  --code-red: #c01343;
  --sim: #b06c00;
  --sim-bg: #fff8e6;
  font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "DejaVu Sans", Roboto, Helvetica, Arial, sans-serif;
  font-size: 15px;
  color: var(--text);
}
* {
  box-sizing: border-box;
}
html,
body {
  margin: 0;
  height: 100%;
}
button,
input,
select,
textarea {
  font: inherit;
  color: inherit;
}
a {
  color: var(--link);
  text-decoration: none;
}
a:hover {
  text-decoration: underline;
}

.sandbox-banner {
  height: 30px;
  display: flex;
  align-items: center;
  gap: 8px;
  padding: 0 12px;
  background: #1a1d21;
  color: #e8e8e8;
  font-size: 12.5px;
  white-space: nowrap;
  overflow: hidden;
}
.sandbox-banner b {
  color: #fff;
  background: var(--sim);
  padding: 1px 6px;
  border-radius: 3px;
  letter-spacing: 0.04em;
}
.sandbox-banner code {
  background: #2c2d30;
  padding: 0 4px;
  border-radius: 3px;
}
.sandbox-banner .spacer {
  flex: 1;
}
.sandbox-banner button {
  background: transparent;
  border: 1px solid #5e5e5e;
  color: #e8e8e8;
  border-radius: 4px;
  padding: 0 8px;
  cursor: pointer;
  font-size: 12px;
}

.layout {
  display: grid;
  grid-template-columns: 240px 1fr auto;
  height: calc(100% - 30px);
}

/* ---------- sidebar ---------- */
.sidebar {
  background: var(--aubergine);
  color: #cfc3cf;
  display: flex;
  flex-direction: column;
  min-height: 0;
}
.team {
  padding: 14px 16px;
  border-bottom: 1px solid #5a2c5b;
  color: #fff;
  font-weight: 800;
  font-size: 17px;
}
.team small {
  display: block;
  font-weight: 400;
  font-size: 12.5px;
  color: #cfc3cf;
  margin-top: 2px;
}
.nav {
  padding: 10px 0;
  overflow-y: auto;
  flex: 1;
}
.nav-title {
  padding: 10px 16px 4px;
  font-size: 13px;
}
.nav-item {
  display: flex;
  align-items: center;
  gap: 6px;
  width: 100%;
  padding: 4px 16px;
  border: 0;
  background: transparent;
  color: #cfc3cf;
  cursor: pointer;
  text-align: left;
  font-size: 15px;
}
.nav-item:hover {
  background: var(--aubergine-hover);
}
.nav-item.active {
  background: var(--active);
  color: #fff;
}
.nav-item.unread {
  color: #fff;
  font-weight: 700;
}
.nav-item .hash {
  width: 16px;
  text-align: center;
  opacity: 0.8;
}
.nav-item .count {
  margin-left: auto;
  background: var(--red);
  color: #fff;
  border-radius: 9px;
  font-size: 12px;
  padding: 0 7px;
  font-weight: 700;
}
.presence {
  width: 9px;
  height: 9px;
  border-radius: 50%;
  background: #2bac76;
  display: inline-block;
  margin: 0 3px;
}
.me {
  padding: 10px 16px;
  border-top: 1px solid #5a2c5b;
  font-size: 13px;
}

/* ---------- main ---------- */
.main {
  display: flex;
  flex-direction: column;
  min-width: 0;
  min-height: 0;
  background: #fff;
}
.channel-header {
  height: 50px;
  display: flex;
  align-items: center;
  gap: 16px;
  padding: 0 20px;
  border-bottom: 1px solid var(--border);
  flex: none;
}
.channel-header h1 {
  font-size: 18px;
  margin: 0;
  font-weight: 800;
}
.channel-header .topic {
  color: var(--muted);
  font-size: 13px;
  white-space: nowrap;
  overflow: hidden;
  text-overflow: ellipsis;
}
.tabs {
  display: flex;
  gap: 4px;
  margin-left: 8px;
}
.tab {
  border: 0;
  background: transparent;
  padding: 14px 10px 12px;
  cursor: pointer;
  color: var(--muted);
  border-bottom: 2px solid transparent;
  font-weight: 600;
}
.tab.active {
  color: var(--text);
  border-bottom-color: var(--green);
}
.messages,
.home {
  flex: 1;
  overflow-y: auto;
  padding: 8px 0 16px;
  min-height: 0;
}
.home {
  padding: 20px 28px;
}
.empty {
  color: var(--muted);
  padding: 32px 20px;
}

.msg {
  display: grid;
  grid-template-columns: 36px 1fr;
  gap: 8px;
  padding: 8px 20px;
  position: relative;
}
.msg:hover {
  background: #f8f8f8;
}
.msg.ephemeral {
  background: #f4f8fb;
}
.msg.flash {
  animation: flash 1.6s ease-out;
}
@keyframes flash {
  from {
    background: #fff5cf;
  }
  to {
    background: transparent;
  }
}
.avatar {
  width: 36px;
  height: 36px;
  border-radius: 6px;
  display: flex;
  align-items: center;
  justify-content: center;
  color: #fff;
  font-weight: 800;
  font-size: 14px;
  background: var(--green);
}
.avatar.slackbot {
  background: #2eb67d;
}
.msg-meta {
  display: flex;
  align-items: baseline;
  gap: 6px;
  margin-bottom: 2px;
}
.msg-meta .name {
  font-weight: 800;
}
.msg-meta .app {
  font-size: 10px;
  font-weight: 700;
  color: var(--muted);
  background: #e8e8e8;
  padding: 0 4px;
  border-radius: 2px;
}
.msg-meta time,
.msg-meta .edited {
  color: var(--muted);
  font-size: 12px;
}
.ephemeral-note {
  color: var(--muted);
  font-size: 13px;
  margin-bottom: 2px;
}
.msg-text {
  line-height: 1.46;
  word-wrap: break-word;
}
.thread-link {
  margin-top: 6px;
  border: 1px solid transparent;
  background: transparent;
  color: var(--link);
  font-weight: 700;
  font-size: 13px;
  padding: 2px 6px 2px 0;
  cursor: pointer;
}
.thread-link:hover {
  text-decoration: underline;
}
.thread {
  border-left: 3px solid var(--border);
  margin-top: 4px;
}
.thread .msg {
  padding: 6px 12px;
}

/* ---------- Block Kit ---------- */
.bk-blocks > * + * {
  margin-top: 8px;
}
.bk-header {
  font-size: 18px;
  font-weight: 800;
  margin: 4px 0 0;
}
.bk-section {
  display: flex;
  gap: 12px;
  align-items: flex-start;
}
.bk-section-main {
  flex: 1;
  min-width: 0;
  line-height: 1.46;
}
.bk-fields {
  display: grid;
  grid-template-columns: 1fr 1fr;
  gap: 8px 16px;
  margin-top: 6px;
}
.bk-section-text + .bk-fields {
  margin-top: 8px;
}
.bk-accessory {
  flex: none;
}
.bk-accessory img {
  width: 88px;
  height: 88px;
  object-fit: cover;
  border-radius: 6px;
}
.bk-context {
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
  color: var(--muted);
  font-size: 13px;
}
.bk-context img {
  width: 20px;
  height: 20px;
  border-radius: 4px;
}
.bk-divider {
  border: 0;
  border-top: 1px solid var(--border);
  margin: 12px 0;
}
.bk-image img {
  max-width: min(480px, 100%);
  max-height: 360px;
  border-radius: 6px;
  border: 1px solid var(--border);
  display: block;
}
.bk-image .bk-image-title {
  font-size: 13px;
  color: var(--muted);
  margin-bottom: 4px;
}
.bk-image-missing {
  display: inline-block;
  padding: 10px 14px;
  border: 1px dashed var(--border);
  color: var(--muted);
  border-radius: 6px;
  font-size: 13px;
}
.bk-actions {
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  align-items: center;
}
.bk-btn {
  border: 1px solid #bbbabb;
  background: #fff;
  border-radius: 4px;
  padding: 0 12px;
  height: 30px;
  font-size: 14px;
  font-weight: 700;
  cursor: pointer;
  white-space: nowrap;
}
.bk-btn:hover {
  background: #f6f6f6;
}
.bk-btn.primary {
  background: var(--green);
  border-color: var(--green);
  color: #fff;
}
.bk-btn.primary:hover {
  background: var(--green-dark);
}
.bk-btn.danger {
  color: var(--red-dark);
  border-color: var(--red-dark);
}
.bk-btn.danger.solid {
  background: var(--red-dark);
  color: #fff;
}
.bk-btn[disabled],
.bk-btn.busy {
  opacity: 0.6;
  cursor: progress;
}
.bk-select,
.bk-input,
.bk-date {
  height: 32px;
  border: 1px solid #bbbabb;
  border-radius: 4px;
  padding: 0 8px;
  background: #fff;
  max-width: 100%;
}
textarea.bk-input {
  height: auto;
  min-height: 80px;
  padding: 6px 8px;
  resize: vertical;
  width: 100%;
}
.bk-overflow {
  position: relative;
  display: inline-block;
}
.bk-overflow > button {
  width: 32px;
  padding: 0;
  font-size: 18px;
  line-height: 1;
}
.menu {
  position: absolute;
  z-index: 20;
  right: 0;
  top: 34px;
  min-width: 200px;
  background: #fff;
  border: 1px solid var(--border);
  border-radius: 6px;
  box-shadow: 0 4px 12px rgba(0, 0, 0, 0.15);
  padding: 6px 0;
  max-height: 280px;
  overflow-y: auto;
}
.menu-item {
  display: block;
  width: 100%;
  border: 0;
  background: transparent;
  text-align: left;
  padding: 5px 14px;
  cursor: pointer;
  font-size: 14px;
}
.menu-item:hover,
.menu-item.hl {
  background: var(--active);
  color: #fff;
}
.menu-group {
  padding: 6px 14px 2px;
  font-size: 12px;
  color: var(--muted);
  font-weight: 700;
}
.menu-empty {
  padding: 6px 14px;
  color: var(--muted);
  font-size: 13px;
}
.combo {
  position: relative;
  min-width: 220px;
}
.combo-box {
  display: flex;
  flex-wrap: wrap;
  gap: 4px;
  align-items: center;
  min-height: 32px;
  border: 1px solid #bbbabb;
  border-radius: 4px;
  padding: 2px 6px;
  background: #fff;
}
.combo-box input {
  border: 0;
  outline: 0;
  flex: 1;
  min-width: 80px;
  height: 26px;
}
.combo .menu {
  left: 0;
  right: auto;
  width: 100%;
}
.chip {
  background: #e8f5fa;
  border-radius: 4px;
  padding: 0 4px 0 6px;
  font-size: 13px;
  display: inline-flex;
  align-items: center;
  gap: 2px;
}
.chip button {
  border: 0;
  background: transparent;
  cursor: pointer;
  padding: 0 2px;
}
.bk-choices label {
  display: flex;
  gap: 6px;
  align-items: center;
  margin: 2px 0;
}
.bk-unsupported {
  color: var(--muted);
  font-size: 12px;
  font-style: italic;
}

/* mrkdwn */
.md code {
  font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 12.5px;
  color: var(--code-red);
  background: var(--code-bg);
  border: 1px solid #e1e1e1;
  border-radius: 3px;
  padding: 1px 3px;
}
.md pre {
  font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 12.5px;
  background: var(--code-bg);
  border: 1px solid #e1e1e1;
  border-radius: 4px;
  padding: 8px;
  margin: 4px 0;
  white-space: pre-wrap;
}
.md blockquote {
  border-left: 4px solid var(--border);
  margin: 2px 0;
  padding-left: 10px;
}
.md .mention,
.md .channel-link {
  background: #e8f5fa;
  color: var(--link);
  border-radius: 3px;
  padding: 0 2px;
}
.md time {
  border-bottom: 1px dotted #999;
}

/* files */
.files {
  display: flex;
  flex-direction: column;
  gap: 8px;
  margin-top: 6px;
}
.file-image img {
  max-width: min(560px, 100%);
  border: 1px solid var(--border);
  border-radius: 6px;
  display: block;
  margin-top: 2px;
}
.file-image .file-title {
  font-size: 13px;
  color: var(--muted);
}
.file-card {
  display: inline-flex;
  align-items: center;
  gap: 10px;
  border: 1px solid var(--border);
  border-radius: 8px;
  padding: 8px 12px;
  max-width: 420px;
  color: var(--text);
}
.file-card .file-icon {
  width: 36px;
  height: 36px;
  border-radius: 6px;
  background: #1264a3;
  color: #fff;
  font-size: 10px;
  font-weight: 800;
  display: flex;
  align-items: center;
  justify-content: center;
}
.file-card small {
  color: var(--muted);
  display: block;
}

/* ---------- composer ---------- */
.composer {
  flex: none;
  margin: 0 20px 16px;
  border: 1px solid #bbbabb;
  border-radius: 8px;
  position: relative;
}
.composer:focus-within {
  border-color: #868686;
  box-shadow: 0 0 0 1px #868686;
}
.composer-row {
  display: flex;
  align-items: center;
}
.composer input {
  flex: 1;
  border: 0;
  outline: 0;
  padding: 11px 12px;
  font-size: 15px;
  background: transparent;
}
.composer .send {
  margin: 6px;
  border: 0;
  background: var(--green);
  color: #fff;
  border-radius: 4px;
  height: 30px;
  padding: 0 12px;
  cursor: pointer;
  font-weight: 700;
}
.composer-foot {
  font-size: 12px;
  color: var(--muted);
  padding: 0 12px 6px;
}
.hints {
  position: absolute;
  left: 0;
  right: 0;
  bottom: 100%;
  margin-bottom: 6px;
  background: #fff;
  border: 1px solid var(--border);
  border-radius: 8px;
  box-shadow: 0 4px 16px rgba(0, 0, 0, 0.12);
  max-height: 320px;
  overflow-y: auto;
  z-index: 30;
}
.hints-title {
  padding: 8px 12px 4px;
  font-size: 12px;
  font-weight: 700;
  color: var(--muted);
}
.hint {
  display: block;
  width: 100%;
  border: 0;
  background: transparent;
  text-align: left;
  padding: 6px 12px;
  cursor: pointer;
}
.hint b {
  font-weight: 700;
}
.hint span {
  color: var(--muted);
  font-size: 13px;
  margin-left: 8px;
}
.hint:hover,
.hint.hl {
  background: #f0f6fb;
}

/* ---------- modal ---------- */
.overlay {
  position: fixed;
  inset: 0;
  background: rgba(0, 0, 0, 0.55);
  display: flex;
  align-items: flex-start;
  justify-content: center;
  padding-top: 5vh;
  z-index: 50;
}
.modal {
  background: #fff;
  border-radius: 8px;
  width: 540px;
  max-width: calc(100vw - 24px);
  max-height: 90vh;
  display: flex;
  flex-direction: column;
  box-shadow: 0 18px 48px rgba(0, 0, 0, 0.35);
}
.modal-head {
  display: flex;
  align-items: center;
  padding: 18px 24px 14px;
  border-bottom: 1px solid var(--border);
}
.modal-head h2 {
  font-size: 20px;
  margin: 0;
  flex: 1;
  font-weight: 800;
}
.modal-head .x {
  border: 0;
  background: transparent;
  font-size: 22px;
  cursor: pointer;
  color: var(--muted);
}
.modal-body {
  padding: 16px 24px;
  overflow-y: auto;
}
.modal-body .bk-blocks > * + * {
  margin-top: 16px;
}
.modal-foot {
  display: flex;
  justify-content: flex-end;
  gap: 10px;
  padding: 14px 24px;
  border-top: 1px solid var(--border);
}
.bk-input-block label.bk-label {
  display: block;
  font-weight: 700;
  margin-bottom: 6px;
}
.bk-input-block .optional {
  font-weight: 400;
  color: var(--muted);
}
.bk-input-block .bk-input,
.bk-input-block .bk-select,
.bk-input-block .bk-date,
.bk-input-block .combo {
  width: 100%;
}
.bk-hint {
  font-size: 13px;
  color: var(--muted);
  margin-top: 4px;
}
.bk-error {
  font-size: 13px;
  color: var(--red-dark);
  margin-top: 4px;
  font-weight: 600;
}
.bk-input-block.has-error .bk-input,
.bk-input-block.has-error .bk-select,
.bk-input-block.has-error .bk-date,
.bk-input-block.has-error .combo-box {
  border-color: var(--red-dark);
  box-shadow: 0 0 0 1px var(--red-dark);
}
.confirm .modal {
  width: 440px;
}

/* ---------- simulator panel ---------- */
.simulator {
  width: 330px;
  border-left: 3px dashed var(--sim);
  background: var(--sim-bg);
  display: flex;
  flex-direction: column;
  min-height: 0;
}
.simulator[hidden] {
  display: none;
}
.sim-head {
  padding: 12px 14px 8px;
  border-bottom: 1px solid #f0d9a8;
}
.sim-head h2 {
  margin: 0;
  font-size: 15px;
  color: var(--sim);
  text-transform: uppercase;
  letter-spacing: 0.06em;
}
.sim-head p {
  margin: 4px 0 0;
  font-size: 12.5px;
  color: #6b5a3a;
}
.sim-list {
  overflow-y: auto;
  padding: 6px 10px 12px;
  flex: 1;
}
.sim-row {
  background: #fff;
  border: 1px solid #f0d9a8;
  border-radius: 6px;
  padding: 8px 10px;
  margin-top: 8px;
  font-size: 13px;
}
.sim-row .uit {
  font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace;
  font-size: 12px;
}
.sim-row .line {
  display: flex;
  gap: 6px;
  align-items: center;
  flex-wrap: wrap;
}
.sim-row .plate {
  font-weight: 700;
}
.tx {
  border-radius: 9px;
  padding: 0 7px;
  font-size: 11.5px;
  font-weight: 700;
  background: #e3f4ec;
  color: var(--green);
}
.tx.bad {
  background: #fde7ee;
  color: var(--red-dark);
}
.tx.idle {
  background: #eee;
  color: var(--muted);
}
.sim-row .btns {
  margin-top: 6px;
  display: flex;
  gap: 6px;
}
.sim-row .btns button {
  border: 1px solid #d9b36b;
  background: #fff;
  border-radius: 4px;
  font-size: 12px;
  padding: 2px 8px;
  cursor: pointer;
}
.sim-row .btns button:hover {
  background: #fff1d1;
}
.sim-row .forced {
  color: var(--sim);
  font-size: 11.5px;
}

.toast {
  position: fixed;
  bottom: 20px;
  left: 50%;
  transform: translateX(-50%);
  background: #1a1d21;
  color: #fff;
  padding: 8px 14px;
  border-radius: 6px;
  font-size: 14px;
  z-index: 90;
  max-width: 80vw;
}
.toast[hidden] {
  display: none;
}
.violations {
  margin: 0 20px 8px;
  padding: 6px 10px;
  background: #fde7ee;
  border-radius: 6px;
  color: var(--red-dark);
  font-size: 12.5px;
}
`;
