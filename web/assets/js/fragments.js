// The GraphQL fragments the page's queries share. A query spreads one by
// name (...FindingFields) and gql() appends the definitions it spreads,
// so every query in the page's sources is one static GraphQL document
// with its variables: nothing is spliced into query text (issue 26.7),
// and the conformance test validates each as sent.

export const FRAGMENTS = {
  FindingFields: `fragment FindingFields on Finding { code severity message file line }`,
  SelectionFields: `fragment SelectionFields on Tool { selection { when limits cost } }`,
  CatalogueFields: `fragment CatalogueFields on ToolSkillCatalogue { phase bytes entries { key line bytes marked } }`,
  SkillRow: `fragment SkillRow on Skill { id title package tier covered contradicted evidence source line contract { ref } triage { verdict note } steps { id automation process { id } } }`,
};

const SPREAD = /\.\.\.\s*([A-Za-z_][A-Za-z0-9_]*)/g;

// withFragments returns query with the definitions of the fragments it
// spreads (and those they spread) appended, each once.
export function withFragments(query) {
  const names = [];
  const visit = (text) => {
    for (const m of text.matchAll(SPREAD)) {
      const name = m[1];
      if (name === "on" || names.includes(name) || !FRAGMENTS[name]) continue;
      names.push(name);
      visit(FRAGMENTS[name]);
    }
  };
  visit(query);
  return names.length ? query + "\n" + names.map((n) => FRAGMENTS[n]).join("\n") : query;
}
