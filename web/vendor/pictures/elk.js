// elkjs, the layered layout of the reachability pictures (drawn as SVG by
// web/assets/js/pictures.js). ELK runs in the page's thread through
// elk.bundled.js's in-thread worker: the CSP has no worker-src, and a
// layout of a few hundred nodes takes milliseconds. Bundled by
// scripts/vendor-web.sh.
import ELK from "elkjs/lib/elk.bundled.js";

export { ELK };
