// Median and range of a few values: how the bench states a figure measured in several rounds.

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** The values, in the order measured. */
  values: number[];
}

export function spreadOf(values: number[]): Spread {
  if (values.length === 0) throw new Error('no values to summarise');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { median, min: sorted[0]!, max: sorted.at(-1)!, values };
}
