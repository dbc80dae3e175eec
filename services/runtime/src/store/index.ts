// What every service's store shares whichever adapter it uses; the drivers stay behind ./sqlite and ./mongo.
export * from './open.js';
export * from './stored-values.js';
