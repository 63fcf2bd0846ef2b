import { CreateFoundation1763800000000 } from './1763800000000-CreateFoundation';

/** Every migration, in order. Listed explicitly so the same list works compiled and under Jest. */
export const MIGRATIONS = [CreateFoundation1763800000000];
