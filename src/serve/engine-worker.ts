/**
 * An engine in a worker thread (src/serve/engines.ts): verifies and loads the release it is given,
 * says what it verified, then makes the payload of each request it receives, in order.
 */
import { parentPort, workerData } from "node:worker_threads";
import { ServiceError } from "../engine/errors.ts";
import { bootEngine } from "./boot.ts";
import type { FromWorker, ToWorker, WorkerBoot } from "./engines.ts";
import { payloadOf } from "./operations.ts";

const port = parentPort;
if (!port) throw new Error("engine-worker.ts runs only as a worker thread of acquis serve");
const send = (m: FromWorker) => port.postMessage(m);

let booted: ReturnType<typeof bootEngine>;
try {
  booted = bootEngine(workerData as WorkerBoot);
  send({
    booted: {
      metaSha256: booted.engine.release.metaSha256,
      verification: String(booted.engine.stamps.verification.status),
    },
  });
  port.on("message", ({ id, tool, args, asOf }: ToWorker) => {
    try {
      send({ id, bytes: payloadOf(booted.engine, booted.scope, tool, args, asOf) });
    } catch (e) {
      if (e instanceof ServiceError) send({ id, refusal: { code: e.code, message: e.message } });
      else send({ id, failure: (e as Error).stack ?? String(e) });
    }
  });
} catch (e) {
  send({ refused: (e as Error).message });
}
