// The schema as the server describes it: the standard introspection query
// (the one GraphQL clients send) and an index over its answer.

const TYPE_REF = "kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }";

// INTROSPECTION_QUERY asks for every type, field, argument, enum value and
// directive with its description, as GraphQL's introspection defines them.
export const INTROSPECTION_QUERY = `query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) { name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type { ${TYPE_REF} }`;

// typeName is the named type under any list and non-null wrappers.
export function typeName(ref) {
  while (ref && ref.ofType) ref = ref.ofType;
  return ref ? ref.name : null;
}

// typeString writes a type reference as GraphQL does: [Skill!]!.
export function typeString(ref) {
  if (!ref) return "";
  if (ref.kind === "NON_NULL") return typeString(ref.ofType) + "!";
  if (ref.kind === "LIST") return "[" + typeString(ref.ofType) + "]";
  return ref.name;
}

// The meta-field every composite type has (GraphQL spec §4.1.4).
const TYPENAME = { name: "__typename", description: "The name of the current object type.", args: [], type: { kind: "NON_NULL", ofType: { kind: "SCALAR", name: "String" } } };

// Schema indexes an introspection answer (__schema) by type name.
export class Schema {
  constructor(raw) {
    this.raw = raw;
    this.types = new Map(raw.types.map((t) => [t.name, t]));
    this.queryType = raw.queryType ? raw.queryType.name : null;
    this.mutationType = raw.mutationType ? raw.mutationType.name : null;
    this.subscriptionType = raw.subscriptionType ? raw.subscriptionType.name : null;
    this.directives = raw.directives || [];
  }

  type(name) { return this.types.get(name) || null; }

  // fields of a composite type (with __typename), [] for any other.
  fields(name) {
    const t = this.type(name);
    if (!t || !t.fields) return [];
    return t.fields.concat(TYPENAME);
  }

  field(typeName, fieldName) {
    return this.fields(typeName).find((f) => f.name === fieldName) || null;
  }

  // rootType is the type an operation of this kind starts from.
  rootType(op) {
    if (op === "mutation") return this.mutationType;
    if (op === "subscription") return this.subscriptionType;
    return this.queryType;
  }

  // userTypes are the schema's own types, without introspection's __ ones.
  userTypes() {
    return [...this.types.values()].filter((t) => !t.name.startsWith("__")).sort((a, b) => a.name.localeCompare(b.name));
  }
}

// loadSchema runs the introspection query through post (see request.js).
export async function loadSchema(post) {
  const res = await post({ query: INTROSPECTION_QUERY, operationName: "IntrospectionQuery" });
  if (res.body && res.body.errors && res.body.errors.length) {
    throw new Error("introspection refused: " + res.body.errors.map((e) => e.message).join("; "));
  }
  if (!res.body || !res.body.data || !res.body.data.__schema) {
    throw new Error("introspection answered HTTP " + res.status + " without a schema");
  }
  return new Schema(res.body.data.__schema);
}
