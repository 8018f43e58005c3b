/**
 * Who makes payloads: the engine in this thread, taking turns, and as many engines in worker threads as
 * `--engines` asks for beyond it (ADR 0028). A cold answer is a millisecond or more of CPU on one
 * thread, so one engine keeps one core busy and queues the rest (docs/serving.md, "Engines"). Each
 * worker verifies and loads the same release itself; it takes requests only once its release is the
 * very one this thread verified (the same release-meta digest and verification), so any engine's bytes
 * are every engine's bytes.
 *
 * Requests wait in one queue, first come first served, and the first engine free takes the next. This
 * thread runs one job per turn of the event loop: Node otherwise runs every request read in one poll
 * before it polls again, and when each costs a millisecond or more some connections lose that race poll
 * after poll (a bare node:http server spinning 1.5 ms per request at 64 connections: p99 655 ms and a
 * worst of 2.2 s; with one job per turn, p99 135 ms at the same throughput: `node bench/queueing.ts`).
 */
import { Worker } from "node:worker_threads";
import type { ErrorCode } from "../contract/schemas.ts";
import type { Engine } from "../engine/context.ts";
import { ServiceError } from "../engine/errors.ts";
import type { ScopeReader } from "../engine/scope.ts";
import type { TrustOptions } from "../trust/verify.ts";
import { payloadOf } from "./operations.ts";
import type { ServeState } from "./state.ts";

/** What a worker needs to boot the release this thread serves. */
export interface WorkerBoot {
  dir: string;
  root: string;
  trust: TrustOptions;
  disclaimer: string;
}

/** A worker's messages: booted (with what it verified) or refused; then one reply per request. */
export type FromWorker =
  | { booted: { metaSha256: string; verification: string } }
  | { refused: string }
  | { id: number; bytes: string }
  | { id: number; refusal: { code: ErrorCode; message: string } }
  | { id: number; failure: string };

export interface ToWorker {
  id: number;
  tool: string;
  args: unknown;
  asOf: string;
}

/**
 * Jobs a worker holds at once. A worker hands its answer back through this thread, which may be busy
 * with a job of its own for a millisecond or more; holding the next jobs keeps the worker working
 * meanwhile. Each held job is one a free engine could have taken first, so the depth is small.
 */
const WORKER_DEPTH = 4;

/** A tool call waiting for an engine. */
interface Job {
  tool: string;
  args: unknown;
  asOf: string;
  resolve: (bytes: string) => void;
  reject: (e: Error) => void;
}

/** An engine in a worker thread, given up to WORKER_DEPTH jobs at a time. */
class WorkerEngine {
  readonly worker: Worker;
  private next = 0;
  private readonly owed = new Map<number, Job>();

  constructor(worker: Worker) {
    this.worker = worker;
  }

  /** Whether it holds as many jobs as it may: one running and the next ones ready to start. */
  get full(): boolean {
    return this.owed.size >= WORKER_DEPTH;
  }

  send(job: Job): void {
    const id = this.next++;
    this.owed.set(id, job);
    this.worker.postMessage({ id, tool: job.tool, args: job.args, asOf: job.asOf } satisfies ToWorker);
  }

  /** Settles the job a reply answers; true when the reply is a payload. */
  settle(m: FromWorker): boolean {
    if (!("id" in m)) return false;
    const job = this.owed.get(m.id);
    if (!job) return false;
    this.owed.delete(m.id);
    if ("bytes" in m) job.resolve(m.bytes);
    else if ("refusal" in m) job.reject(new ServiceError(m.refusal.code, m.refusal.message));
    else job.reject(new Error(`engine worker: ${m.failure}`));
    return "bytes" in m;
  }

  /** The worker is gone: what it still owed fails, as an internal error. */
  fail(reason: string): void {
    for (const job of this.owed.values()) job.reject(new Error(`engine worker: ${reason}`));
    this.owed.clear();
  }
}

export interface EngineLog {
  info(o: object, msg: string): void;
  error(o: object, msg: string): void;
}

/** This thread's engine: a tool call's payload bytes, or the engine's ServiceError. */
export type LocalEngine = (tool: string, args: unknown, asOf: string) => string;

export class Engines {
  private readonly local: LocalEngine;
  private readonly queue: Job[] = [];
  private readonly workers: WorkerEngine[] = [];
  private turnScheduled = false;
  /** Payloads made per engine, by number (0: this thread's), for /metrics. */
  readonly made: number[] = [0];

  /** `local` defaults to the engine the state holds once its release is booted. */
  constructor(state: ServeState, local?: LocalEngine) {
    this.local =
      local ??
      ((tool, args, asOf) => payloadOf(state.engine as Engine, state.scope as ScopeReader, tool, args, asOf));
  }

  /** Engines taking requests: this thread's and the workers' booted so far. */
  get count(): number {
    return 1 + this.workers.length;
  }

  /** Requests waiting for an engine. */
  get waiting(): number {
    return this.queue.length;
  }

  /** A tool call's payload bytes, from the first engine free, after every call queued before it. */
  run(tool: string, args: unknown, asOf: string): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ tool, args, asOf, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Schedules this thread's next turn while jobs wait, and gives the workers the jobs beyond the one that
   * turn will take, up to each worker's depth: a lone request is answered here, without the round trip
   * to a worker; under load every engine is kept busy.
   */
  private dispatch(): void {
    if (this.queue.length > 0 && !this.turnScheduled) {
      this.turnScheduled = true;
      setImmediate(this.turn);
    }
    const reserved = this.turnScheduled ? 1 : 0;
    for (const w of this.workers)
      while (!w.full && this.queue.length > reserved) w.send(this.queue.shift() as Job);
  }

  /** One job in this thread, then back to the event loop, so sockets are read between two jobs. */
  private readonly turn = (): void => {
    this.turnScheduled = false;
    const job = this.queue.shift();
    if (job) {
      try {
        job.resolve(this.local(job.tool, job.args, job.asOf));
        this.made[0] = (this.made[0] as number) + 1;
      } catch (e) {
        job.reject(e as Error);
      }
    }
    this.dispatch();
  };

  /**
   * Starts `n` workers booting the release this thread verified (`engine`); each joins once it holds
   * the same release, verified the same way. Resolves when every worker has joined or been turned away.
   */
  addWorkers(n: number, boot: WorkerBoot, engine: Engine, log: EngineLog): Promise<void> {
    const expected = {
      metaSha256: engine.release.metaSha256,
      verification: String(engine.stamps.verification.status),
    };
    return Promise.all(Array.from({ length: n }, (_, i) => this.addWorker(i + 1, boot, expected, log))).then(
      () => undefined,
    );
  }

  private addWorker(
    number: number,
    boot: WorkerBoot,
    expected: { metaSha256: string; verification: string },
    log: EngineLog,
  ): Promise<void> {
    const worker = new Worker(new URL("./engine-worker.ts", import.meta.url), { workerData: boot });
    // A worker never keeps the process alive: draining ends with the server.
    worker.unref();
    const engine = new WorkerEngine(worker);
    this.made[number] = 0;
    return new Promise<void>((done) => {
      const turnAway = (why: string) => {
        log.error({ engine: number }, `engine worker ${number} not used: ${why}`);
        void worker.terminate();
        done();
      };
      worker.on("message", (m: FromWorker) => {
        if ("booted" in m) {
          const same =
            m.booted.metaSha256 === expected.metaSha256 && m.booted.verification === expected.verification;
          if (!same)
            return turnAway(
              `it loaded release-meta ${m.booted.metaSha256} (${m.booted.verification}), not ${expected.metaSha256} (${expected.verification})`,
            );
          this.workers.push(engine);
          log.info({ engine: number, engines: this.count }, "engine worker ready");
          this.dispatch();
          return done();
        }
        if ("refused" in m) return turnAway(m.refused);
        if (engine.settle(m)) this.made[number] = (this.made[number] as number) + 1;
        this.dispatch();
      });
      worker.on("error", (e) => {
        const joined = this.workers.includes(engine);
        this.remove(engine);
        engine.fail(e.message);
        if (!joined) return turnAway(e.message);
        log.error(
          { engine: number, err: e },
          `engine worker ${number} failed; serving on with ${this.count}`,
        );
      });
      worker.on("exit", (code) => {
        if (!this.workers.includes(engine)) return;
        this.remove(engine);
        engine.fail(`exited with code ${code}`);
        log.error({ engine: number, code }, `engine worker ${number} exited; serving on with ${this.count}`);
      });
    });
  }

  private remove(engine: WorkerEngine): void {
    const at = this.workers.indexOf(engine);
    if (at >= 0) this.workers.splice(at, 1);
  }
}
