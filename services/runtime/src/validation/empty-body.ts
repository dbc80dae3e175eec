// The body of a write that takes no fields (verify, test, token issue, logout): nothing or `{}`;
// an unknown field is refused like everywhere else.
import { z } from 'zod';

export const emptyBodySchema = z.strictObject({});
