// The answer of the last publishes in this tab, so the version page keeps showing what
// publishing reported (compatibility and warnings) after the notice is dismissed.

const reports = new Map(); // [application, type, version] as JSON → Create answer

const key = (application, attributesType, version) => JSON.stringify([application, attributesType, version]);

/** Keeps a Create answer `{schema, compatibility, warnings?}`. */
export function rememberPublished(result) {
  const { application, attributes_type: attributesType, version } = result.schema;
  reports.set(key(application, attributesType, version), result);
}

/** The Create answer that published `schema` in this tab, if any (same creation time). */
export function publishedReport(schema) {
  const result = reports.get(key(schema.application, schema.attributes_type, schema.version));
  return result && result.schema.created === schema.created ? result : null;
}
