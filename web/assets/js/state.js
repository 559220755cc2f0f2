// What the page knows between views: the graph version shown, what the
// viewer may do, the exposure profile.

import { token } from "./api.js";

export const state = { version: null, viewer: { canRecord: false, readOnly: false }, profiles: null, renderSeq: 0 };

export function canRecord() { return !!token() && state.viewer.canRecord && !state.viewer.readOnly; }
