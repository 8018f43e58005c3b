/** The first position in an ascending array whose value is not below `x` (its length if none is). */
export function lowerBound<T extends number | string>(sorted: ArrayLike<T>, x: T): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as T) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
