/**
 * The serving process's Prometheus metrics (docs/serving.md): requests and latency by route and status,
 * readiness, the release served, rate-limit refusals and the engines; one registry per app.
 */
import client from "prom-client";

export interface Metrics {
  registry: client.Registry;
  requests: client.Counter<string>;
  latency: client.Histogram<string>;
  ready: client.Gauge<string>;
  releaseInfo: client.Gauge<string>;
  rateLimited: client.Counter<string>;
  engines: client.Gauge<string>;
  waiting: client.Gauge<string>;
  made: client.Gauge<string>;
}

export function metrics(): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  return {
    registry,
    requests: new client.Counter({
      name: "acquis_http_requests_total",
      help: "Requests by route and status",
      labelNames: ["route", "method", "status"],
      registers: [registry],
    }),
    latency: new client.Histogram({
      name: "acquis_http_request_duration_seconds",
      help: "Request latency by route and status",
      labelNames: ["route", "method", "status"],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    ready: new client.Gauge({
      name: "acquis_ready",
      help: "1 when a verified release is loaded and the process is not draining",
      registers: [registry],
    }),
    releaseInfo: new client.Gauge({
      name: "acquis_release_info",
      help: "The release served",
      labelNames: ["regime", "tag", "verification"],
      registers: [registry],
    }),
    rateLimited: new client.Counter({
      name: "acquis_rate_limited_total",
      help: "Requests refused by the rate limit",
      labelNames: ["credential"],
      registers: [registry],
    }),
    engines: new client.Gauge({
      name: "acquis_engines",
      help: "Engines taking requests: this thread's and the worker threads' booted (--engines)",
      registers: [registry],
    }),
    waiting: new client.Gauge({
      name: "acquis_engine_queue",
      help: "Requests waiting for an engine",
      registers: [registry],
    }),
    made: new client.Gauge({
      name: "acquis_engine_payloads",
      help: "Payloads each engine has made since start (0: this thread's; 1 and up: worker threads')",
      labelNames: ["engine"],
      registers: [registry],
    }),
  };
}
