import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];
type Rules = ReturnType<Lookup>;

const REMEMBERED = Symbol.for('cardkey.validationRulesRemembered');

/**
 * class-validator finds a DTO's rules, on every validation, by testing the DTO against every class
 * that has rules (`instanceof`, a few hundred here): 2-3 % of a heartbeat's CPU
 * (typestack/class-validator#2686, open). A class's rules are all registered when it is defined,
 * before anything can validate it, so the answer is remembered per class and lookup options; a rule
 * registered later (a class defined late, such as a test's) forgets everything remembered.
 */
export function rememberValidationRules(storage: Storage = getMetadataStorage()): void {
  const patched = storage as Storage & { [REMEMBERED]?: true };
  if (patched[REMEMBERED]) return;
  patched[REMEMBERED] = true;

  let remembered = new WeakMap<object, Map<string, Rules>>();
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${schema}\n${always}\n${strictGroups}\n${groups?.join('\n') ?? ''}`;
    let byOptions = remembered.get(target);
    if (!byOptions) remembered.set(target, (byOptions = new Map()));
    let rules = byOptions.get(key);
    if (!rules) byOptions.set(key, (rules = lookup(target, schema, always, strictGroups, groups)));
    return rules;
  };
  const add = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    remembered = new WeakMap();
    add(metadata);
  };
}
