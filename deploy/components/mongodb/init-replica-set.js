// Run by the mongodb-init Job with `mongosh --nodb`: initiates the replica set rs0 once all three
// members answer, waits for a primary, then creates (or updates) the application user with
// readWrite on <MONGODB_DB_PREFIX>-<service> for every service. Safe to run again.
const env = process.env;
const root = `${encodeURIComponent(env.MONGO_ROOT_USERNAME)}:${encodeURIComponent(env.MONGO_ROOT_PASSWORD)}`;
const members = ['mongodb-0.mongodb:27017', 'mongodb-1.mongodb:27017', 'mongodb-2.mongodb:27017'];
const services = ['identity', 'tools', 'telephony', 'billing', 'platform-users', 'assistants', 'calls', 'webhooks', 'campaigns'];
const prefix = env.MONGODB_DB_PREFIX || 'voice';

function retry(what, action) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return action();
    } catch (error) {
      if (attempt >= 150) throw error;
      print(`${what}: ${error.message}; retrying`);
      sleep(2000);
    }
  }
}

const direct = (host) => retry(`connect ${host}`, () => connect(`mongodb://${root}@${host}/admin?directConnection=true&authSource=admin`));

const first = direct(members[0]);
const status = first.runCommand({ replSetGetStatus: 1 });
if (status.ok !== 1 && status.codeName === 'NotYetInitialized') {
  for (const host of members.slice(1)) direct(host).runCommand({ ping: 1 });
  print('initiating replica set rs0');
  const answer = first.runCommand({ replSetInitiate: { _id: 'rs0', members: members.map((host, id) => ({ _id: id, host })) } });
  if (answer.ok !== 1 && answer.codeName !== 'AlreadyInitialized') throw new Error(`replSetInitiate failed: ${JSON.stringify(answer)}`);
} else if (status.ok !== 1) {
  throw new Error(`replSetGetStatus failed: ${JSON.stringify(status)}`);
}

const admin = retry('connect rs0', () => connect(`mongodb://${root}@${members.join(',')}/admin?replicaSet=rs0&authSource=admin`));
retry('wait for a primary', () => {
  if (!admin.runCommand({ hello: 1 }).isWritablePrimary) throw new Error('no primary yet');
});

const user = env.MONGO_APP_USERNAME;
const roles = services.map((service) => ({ role: 'readWrite', db: `${prefix}-${service}` }));
retry('create the application user', () => {
  if (admin.getUser(user)) admin.updateUser(user, { pwd: env.MONGO_APP_PASSWORD, roles });
  else admin.createUser({ user, pwd: env.MONGO_APP_PASSWORD, roles });
});
print(`replica set rs0 ready; user ${user} has readWrite on ${roles.map((role) => role.db).join(', ')}`);
