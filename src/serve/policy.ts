/**
 * The deployment policy (`config/serving.yaml`): bearer credentials by SHA-256, per-credential rate
 * limits, CORS origins, whether probes need a credential, the shutdown drain. Read and validated
 * before the socket binds; a file that does not parse or names an unknown key stops the server.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";

export interface Credential {
  name: string;
  sha256: string;
  per_minute: number;
}

export interface Policy {
  anonymous: { allowed: boolean; per_minute: number };
  credentials: Credential[];
  cors: { origins: string[] };
  probes_require_auth: boolean;
  shutdown: { drain_seconds: number };
  /** Socket time limits (docs/security.md): a slow client cannot hold a connection. */
  timeouts: {
    headers_seconds: number;
    request_seconds: number;
    keep_alive_seconds: number;
    idle_seconds: number;
  };
}

export class PolicyError extends Error {}

export const DEFAULT_POLICY: Policy = {
  anonymous: { allowed: false, per_minute: 60 },
  credentials: [],
  cors: { origins: [] },
  probes_require_auth: false,
  shutdown: { drain_seconds: 10 },
  timeouts: { headers_seconds: 10, request_seconds: 30, keep_alive_seconds: 5, idle_seconds: 60 },
};

function keys(o: Record<string, unknown>, allowed: string[], where: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k))
      throw new PolicyError(`${where}: unknown key "${k}" (known: ${allowed.join(", ")})`);
  }
}

function object(v: unknown, where: string): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v))
    throw new PolicyError(`${where}: expected a mapping`);
  return v as Record<string, unknown>;
}

function count(v: unknown, where: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0)
    throw new PolicyError(`${where}: expected a whole number >= 0`);
  return v;
}

export function parsePolicy(text: string, file: string): Policy {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    throw new PolicyError(`${file}: not valid YAML: ${(e as Error).message.split("\n")[0]}`);
  }
  if (doc === null || doc === undefined) return DEFAULT_POLICY;
  const root = object(doc, file);
  keys(root, ["anonymous", "credentials", "cors", "probes_require_auth", "shutdown", "timeouts"], file);
  const policy: Policy = structuredClone(DEFAULT_POLICY);
  if (root.anonymous !== undefined) {
    const a = object(root.anonymous, `${file}: anonymous`);
    keys(a, ["allowed", "per_minute"], `${file}: anonymous`);
    if (a.allowed !== undefined && typeof a.allowed !== "boolean")
      throw new PolicyError(`${file}: anonymous.allowed: expected true or false`);
    policy.anonymous = {
      allowed: (a.allowed as boolean) ?? false,
      per_minute: a.per_minute === undefined ? 60 : count(a.per_minute, `${file}: anonymous.per_minute`),
    };
  }
  if (root.credentials !== undefined) {
    if (!Array.isArray(root.credentials)) throw new PolicyError(`${file}: credentials: expected a list`);
    policy.credentials = root.credentials.map((c, i) => {
      const where = `${file}: credentials[${i}]`;
      const o = object(c, where);
      keys(o, ["name", "sha256", "per_minute"], where);
      if (typeof o.name !== "string" || o.name === "")
        throw new PolicyError(`${where}.name: expected a non-empty string`);
      if (typeof o.sha256 !== "string" || !/^[0-9a-f]{64}$/u.test(o.sha256)) {
        throw new PolicyError(`${where}.sha256: expected the lowercase hex SHA-256 of the token`);
      }
      return {
        name: o.name,
        sha256: o.sha256,
        per_minute: o.per_minute === undefined ? 60 : count(o.per_minute, `${where}.per_minute`),
      };
    });
  }
  if (root.cors !== undefined) {
    const c = object(root.cors, `${file}: cors`);
    keys(c, ["origins"], `${file}: cors`);
    if (
      c.origins !== undefined &&
      (!Array.isArray(c.origins) || c.origins.some((x) => typeof x !== "string"))
    ) {
      throw new PolicyError(`${file}: cors.origins: expected a list of origins`);
    }
    policy.cors = { origins: (c.origins as string[]) ?? [] };
  }
  if (root.probes_require_auth !== undefined) {
    if (typeof root.probes_require_auth !== "boolean")
      throw new PolicyError(`${file}: probes_require_auth: expected true or false`);
    policy.probes_require_auth = root.probes_require_auth;
  }
  if (root.shutdown !== undefined) {
    const s = object(root.shutdown, `${file}: shutdown`);
    keys(s, ["drain_seconds"], `${file}: shutdown`);
    if (s.drain_seconds !== undefined)
      policy.shutdown = { drain_seconds: count(s.drain_seconds, `${file}: shutdown.drain_seconds`) };
  }
  if (root.timeouts !== undefined) {
    const t = object(root.timeouts, `${file}: timeouts`);
    const names = ["headers_seconds", "request_seconds", "keep_alive_seconds", "idle_seconds"] as const;
    keys(t, [...names], `${file}: timeouts`);
    for (const n of names) {
      if (t[n] === undefined) continue;
      const v = count(t[n], `${file}: timeouts.${n}`);
      if (v === 0) throw new PolicyError(`${file}: timeouts.${n}: 0 would mean no limit; give seconds >= 1`);
      policy.timeouts[n] = v;
    }
    if (policy.timeouts.headers_seconds > policy.timeouts.request_seconds)
      throw new PolicyError(`${file}: timeouts.headers_seconds must not exceed request_seconds`);
  }
  return policy;
}

export function readPolicy(file: string, required: boolean): Policy {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    if (required) throw new PolicyError(`${file}: cannot read the deployment policy`);
    return DEFAULT_POLICY;
  }
  return parsePolicy(text, file);
}
