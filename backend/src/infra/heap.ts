import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets a heap's old generation grow past what its last full collection left
 * live: 20 %, where V8's own rule let it reach about twice the live size. A server process
 * keeps 40-50 MB live on each of its threads (the API's and the projector's), so each heap
 * carried 40-50 MB of garbage at its peak. Measured with the bench's commands phase, back
 * to back at load 9-10: peak RSS 269 MB with V8's rule, 211 MB with this one; 13 full collections
 * instead of 2 (4 on the API's thread, 9 on the projector's), and no more time in garbage
 * collection in all (3.3 s of pauses against 4.5 s: the young-generation collections, most
 * of it, took less).
 *
 * The flag is the process's, so it holds for the projector's worker thread too; it is read
 * at every collection, so setting it as the process starts is enough.
 */
export const HEAP_GROWING_PERCENT = 20;

export function limitHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
