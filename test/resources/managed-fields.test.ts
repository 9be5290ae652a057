/**
 * The managed fields each kind declares (`managed` in provider/core/kinds/<kind>.ts), from which
 * the runtime derives values, originals and their outputs (provider/core/runtime/managed.ts):
 * each names an input of the kind (an output too), and its original an output stored as a secret
 * whenever the field's input is one (`derivedFrom`), or a secret's original would be written to
 * state in clear.
 */
import { describe, expect, it } from "vitest";
import { KINDS, type ResourceKind } from "../../provider/core/kinds";
import type { ManagedField, OutputField } from "../../provider/core/kinds/declare";
import { managedFields } from "../../provider/core/runtime/managed";

const kinds = (Object.keys(KINDS) as ResourceKind[]).filter((kind) => KINDS[kind].managed);
const head = (path: string) => path.split(".")[0]!;

it("is declared by the kinds that record originals of their fields (PolicyRuleModes and ProjectTags claim per rule and per tag)", () => {
  expect(kinds.sort()).toEqual([
    "DeploymentSettings",
    "DetectionPolicy",
    "DetectionPolicyException",
    "ManagedScan",
    "NotificationRule",
    "PolicyRuleMode",
    "ProjectSettings",
    "RemediationPolicy",
    "UserRole",
  ]);
});

describe.each(kinds)("%s", (kind) => {
  const declaration = KINDS[kind];
  const fields = Object.entries(declaration.managed as Record<string, ManagedField>);
  const outputs = declaration.outputs as Record<string, OutputField>;

  // An input is an output too (its live value where the kind declares an output of its name: a DetectionPolicyException's type does not).
  it.each(fields)("%s is an input, its original an output derived from that input", (field, { original }) => {
    expect(Object.keys(declaration.inputs)).toContain(head(field));
    const derivedFrom = [outputs[head(original)]?.derivedFrom ?? []].flat();
    expect(derivedFrom).toContain(head(field));
  });

  it("round-trips originals through the outputs that hold them", () => {
    const managed = managedFields(kind);
    const originals = Object.fromEntries(managed.names.map((name, i) => [name, [`was-${i}`]]));
    const stored = managed.originalOutputs(originals);
    const fromState = managed.originals({ ...stored, managedFields: managed.names });
    expect(fromState).toEqual(originals);
    // A state manages its required fields and those its `managedFields` lists.
    const listed = managed.names.find((name) => !managed.required.includes(name));
    const expected = managed.names.filter((name) => name === listed || managed.required.includes(name));
    expect(managed.recorded({ ...stored, managedFields: listed ? [listed] : [] })).toEqual(
      Object.fromEntries(expected.map((name) => [name, fromState[name]])),
    );
  });
});
