/** The contract's shared building blocks: dates, string lists, nullables. */
import { type TSchema, Type } from "@sinclair/typebox";

export const DatePattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}$";
export const Day = Type.String({ pattern: DatePattern, description: "a date, YYYY-MM-DD" });
export const Strings = Type.Array(Type.String());
export const NullableStrings = Type.Union([Strings, Type.Null()]);
export const Nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
