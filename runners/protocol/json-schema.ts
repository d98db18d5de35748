// One configured JSON Schema validator for every contract checked: the protocol's messages and operation
// inputs and outputs here, and the harness's scenarios, runner manifests, reports, baselines and captures.
// It lives with the protocol, whose annotations (x-capability, x-creates-handle, x-handle) are its keywords.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export const ajv = new Ajv2020({ allErrors: true, verbose: true, strict: true, strictRequired: false, allowUnionTypes: true });
// Read by json-schema-to-typescript only.
ajv.addKeyword("tsType");
// An annotation of runners/protocol/operations.schema.json: the capability an operation, or one input
// key, needs a scenario to require (protocol.ts reads it; lint checks it).
ajv.addKeyword({ keyword: "x-capability", schemaType: "string" });
// Its handle annotations: the input key that creates a handle of a kind (`x-creates-handle`) and one
// that names an existing handle (`x-handle`), so the engine knows which step a later one builds on.
ajv.addKeyword({ keyword: "x-creates-handle", schemaType: "string" });
ajv.addKeyword({ keyword: "x-handle", schemaType: "string" });
// ajv-formats is CommonJS; under NodeNext its default export's type arrives wrapped once.
(addFormats as unknown as (instance: Ajv2020) => void)(ajv);

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * A validator for a schema object, compiled once per object. `referenced`: the other schemas its
 * `$ref`s name by `$id` (e.g. the capture schema's provenance is the scenario schema's), so a part
 * shared by two contracts is written once.
 */
export function compileSchema<T = unknown>(schema: object, ...referenced: { $id: string }[]): ValidateFunction<T> {
  let validate = compiled.get(schema);
  if (!validate) {
    for (const other of referenced) if (!ajv.getSchema(other.$id)) ajv.addSchema(other);
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate as ValidateFunction<T>;
}
