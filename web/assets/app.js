// skillgraph coverage-triage page: the entry module. Plain ES modules, no
// dependencies, no build step; the page talks only to the same origin's
// /graphql. Each module under js/ has one job; this one registers the
// views with the router and starts the page.

import { registerView, route, main } from "./js/router.js";
import { renderAuth, loadViewer, pollVersion } from "./js/chrome.js";
import { viewOverview } from "./js/views/overview.js";
import { viewQueue } from "./js/views/queue.js";
import { viewSkill } from "./js/views/skill.js";
import { viewTool } from "./js/views/tool.js";
import { viewProcess } from "./js/views/process.js";
import { viewWorkflows } from "./js/views/workflows.js";
import { viewUnreachable } from "./js/views/unreachable.js";
import { viewFindings } from "./js/views/findings.js";
import { viewPlugins } from "./js/views/plugins.js";
import { viewPlugin } from "./js/views/plugin.js";
import { viewToolSkills } from "./js/views/toolskills.js";
import { viewPackage } from "./js/views/package.js";
import { viewVersion } from "./js/views/version.js";

registerView("overview", (parts, params) => viewOverview(params));
registerView("queue", (parts, params) => viewQueue(params));
registerView("skill", (parts, params) => viewSkill(parts[0] || "", params));
registerView("tool", (parts) => viewTool(parts[0] || ""));
registerView("process", (parts, params) => viewProcess(parts[0] || "", params));
registerView("workflows", (parts, params) => viewWorkflows(params));
registerView("unreachable", (parts, params) => viewUnreachable(params));
registerView("findings", (parts, params) => viewFindings(params));
registerView("plugins", (parts, params) => viewPlugins(params));
registerView("plugin", (parts, params) => viewPlugin(parts[0] || "", params));
registerView("tool-skills", () => viewToolSkills());
registerView("package", (parts) => viewPackage(parts[0] || ""));
registerView("version", (parts) => viewVersion(parts[0] || ""));

document.getElementById("skip-link").addEventListener("click", (ev) => { ev.preventDefault(); main.focus(); });
window.addEventListener("hashchange", route);
renderAuth();
loadViewer().then(() => { renderAuth(); route(); });
setInterval(pollVersion, 30000);
