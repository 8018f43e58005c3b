/**
 * The server's logger. JSON lines on stderr (what log collectors read) unless stderr is a terminal,
 * where pino-pretty prints each line for a person; ACQUIS_LOG_FORMAT=json|pretty decides either way,
 * and ACQUIS_LOG_LEVEL sets the level (info). stdout stays free for the "listening on" line and MCP.
 */
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";

export function serverLogger(): Logger {
  const level = process.env.ACQUIS_LOG_LEVEL ?? "info";
  const format = process.env.ACQUIS_LOG_FORMAT ?? (process.stderr.isTTY ? "pretty" : "json");
  if (format !== "json" && format !== "pretty")
    throw new Error(`ACQUIS_LOG_FORMAT "${format}" is not json or pretty`);
  if (format === "json") return pino({ level }, pino.destination(2));
  return pino(
    { level },
    pretty({
      destination: 2,
      sync: true,
      colorize: process.stderr.isTTY,
      translateTime: "SYS:HH:MM:ss",
      ignore: "pid,hostname",
    }),
  );
}
