// What an edited schema changes against the newest version, field by field, while it is
// still a draft: the dry run's form compared with the newest version's form (GET …/form),
// in the same shape as `:diff` so the Changes table shows both. A change is breaking when the
// dry run's compatibility report names its field.

const flatten = (form) => {
  const fields = new Map();
  const walk = (list) => {
    for (const field of list ?? []) {
      fields.set(field.path, field);
      walk(field.fields);
      if (field.item) walk([field.item]);
      for (const option of field.cases ?? []) walk(option.fields);
    }
  };
  walk(form?.content?.fields);
  walk(form?.attributes?.fields);
  return fields;
};

const text = (value) => JSON.stringify(value ?? null);

/** `[{path, change, property?, old, new, breaking}]` from form `before` to form `after`. */
export function formChanges(before, after, compatibility) {
  const breakingPaths = new Set((compatibility?.groups ?? compatibility?.problems ?? [])
    .filter((group) => group.new !== false).map((group) => group.path));
  const isBreaking = (path) => [...breakingPaths].some((broken) => broken === path || path.startsWith(`${broken}.`) || broken.startsWith(`${path}.`));
  const old = flatten(before);
  const fresh = flatten(after);
  const changes = [];
  const add = (path, change, values, property) => changes.push({ path, change, property, ...values, breaking: isBreaking(path) });
  for (const [path, field] of old) if (!fresh.has(path)) add(path, 'removed', { old: field.type });
  for (const [path, field] of fresh) {
    const was = old.get(path);
    if (!was) {
      add(path, 'added', { new: field.type });
      continue;
    }
    if (was.type !== field.type) add(path, 'type', { old: was.type, new: field.type });
    if (Boolean(was.required) !== Boolean(field.required)) add(path, 'required', { old: Boolean(was.required), new: Boolean(field.required) });
    if (Boolean(was.nullable) !== Boolean(field.nullable)) add(path, 'nullable', { old: Boolean(was.nullable), new: Boolean(field.nullable) });
    const values = (f) => (f.options ?? []).map((option) => option.value);
    if (text(values(was)) !== text(values(field))) add(path, 'enum_values', { old: values(was), new: values(field) });
    const limits = new Set([...Object.keys(was.constraints ?? {}), ...Object.keys(field.constraints ?? {})]);
    for (const limit of limits) {
      const [a, b] = [was.constraints?.[limit], field.constraints?.[limit]];
      if (text(a) !== text(b)) add(path, limit === 'format' ? 'format' : 'constraint', { old: a ?? null, new: b ?? null }, limit === 'format' ? undefined : limit);
    }
    if ((was.encoding ?? null) !== (field.encoding ?? null)) add(path, 'encoding', { old: was.encoding ?? null, new: field.encoding ?? null });
  }
  return changes;
}
