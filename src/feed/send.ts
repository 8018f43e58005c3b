/**
 * Sending a webhook safely: which addresses a delivery may reach, how an endpoint is shown, and the POST
 * itself (time limits, no redirects, a bounded read, the connection pinned to the address checked).
 */
import { lookup } from "node:dns/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

const CONNECT_MS = 5_000;
const TOTAL_MS = 10_000;
const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * Where a webhook may be sent. The *resolved* address is classified after unwrapping every IPv6 form
 * that carries an IPv4 address (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo), by
 * ipaddr.js's range tables: only `unicast` (public) addresses pass; loopback passes only when the
 * operator allowed it (`--allow-loopback-endpoints`, for development and tests).
 */
export function addressRefusal(address: string, allowLoopback: boolean): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/gu, ""));
  } catch {
    return `${address} is not an IP address`;
  }
  const embedded = (v6: ipaddr.IPv6): ipaddr.IPv4 | null => {
    const range = v6.range();
    const parts = v6.toByteArray();
    if (range === "ipv4Mapped" || range === "rfc6145" || range === "rfc6052")
      return new ipaddr.IPv4(parts.slice(12, 16));
    if (range === "6to4") return new ipaddr.IPv4(parts.slice(2, 6));
    if (range === "teredo") return new ipaddr.IPv4(parts.slice(12, 16).map((b) => b ^ 0xff));
    return null;
  };
  const checked = ip.kind() === "ipv6" ? (embedded(ip as ipaddr.IPv6) ?? ip) : ip;
  const range = checked.range();
  if (range === "unicast") return null;
  if (range === "loopback" && allowLoopback && checked === ip) return null;
  return `${address} is ${checked === ip ? "" : `an IPv6 form of ${checked.toString()}, `}in the ${range} range, not a public address`;
}

/** An endpoint as it may be shown: userinfo (credentials) never leaves the store. */
export function redactEndpoint(endpoint: string): string {
  try {
    const u = new URL(endpoint);
    if (u.username === "" && u.password === "") return endpoint;
    u.username = "REDACTED";
    u.password = "";
    return u.toString();
  } catch {
    return endpoint;
  }
}

/**
 * POST the payload: connect and total timeouts, no redirects followed (a 3xx is a failure), at most
 * 64 KiB of the response read. The host is resolved, every address it resolves to classified
 * (addressRefusal), and the connection pinned to the address that was checked, so a second DNS answer
 * cannot redirect it.
 */
export async function send(
  endpoint: string,
  headers: Record<string, string>,
  body: string,
  allowLoopback = false,
): Promise<{ status: number | null; error: string | null }> {
  const url = new URL(endpoint);
  let pinned: string;
  try {
    const addresses = await lookup(url.hostname.replace(/^\[|\]$/gu, ""), { all: true });
    const refusal = addresses.map((a) => addressRefusal(a.address, allowLoopback)).find((r) => r !== null);
    if (addresses.length === 0 || refusal) {
      return {
        status: null,
        error: `refused: ${url.hostname} resolves to a non-public address (${refusal})`,
      };
    }
    pinned = (addresses[0] as { address: string }).address;
  } catch (e) {
    return { status: null, error: `cannot resolve ${url.hostname}: ${(e as Error).message}` };
  }
  const family = isIP(pinned);
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: { status: number | null; error: string | null }) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      resolve(r);
    };
    const req = request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        timeout: CONNECT_MS,
        // Node asks for all addresses when it races families (autoSelectFamily): answer in both shapes.
        lookup: ((_h, o, cb) =>
          o?.all
            ? cb(null, [{ address: pinned, family }])
            : cb(null, pinned, family)) satisfies LookupFunction,
      },
      (res) => {
        let read = 0;
        res.on("data", (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) res.destroy();
        });
        res.on("end", () => done({ status: res.statusCode ?? null, error: null }));
        res.on("close", () => done({ status: res.statusCode ?? null, error: null }));
      },
    );
    const total = setTimeout(() => {
      req.destroy(new Error(`no answer within ${TOTAL_MS} ms`));
    }, TOTAL_MS);
    req.on("timeout", () => req.destroy(new Error(`no connection within ${CONNECT_MS} ms`)));
    req.on("error", (e) => done({ status: null, error: e.message }));
    req.end(body);
  });
}
