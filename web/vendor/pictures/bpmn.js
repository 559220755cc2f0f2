// bpmn-js's NavigatedViewer (a BPMN file drawn from its DI) and
// bpmn-auto-layout (DI for files that have none), for the process view's
// diagram (web/assets/js/pictures.js). Bundled by scripts/vendor-web.sh.
import NavigatedViewer from "bpmn-js/lib/NavigatedViewer";
import { layoutProcess } from "bpmn-auto-layout";
import "bpmn-js/dist/assets/diagram-js.css";
import "bpmn-js/dist/assets/bpmn-js.css";

export { NavigatedViewer, layoutProcess };
