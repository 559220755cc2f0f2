// Tools the site generator registers at build time. skillgraph does not run
// this module; the JSON and YAML files beside it describe the same Tools.
export const tools = [{ id: "site-preview" }];
