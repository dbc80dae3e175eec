#!/usr/bin/env node
// Validates the deployment: the one Dockerfile is lint-clean and right for every image, and every
// kustomize target (deploy/base and each deploy/overlays/*) builds with `kubectl kustomize` and
// yields only objects that are valid Kubernetes API objects and follow the platform's rules.
//
// Schema validation, offline: every object is type-checked by the TypeScript compiler against the
// API types of `kubernetes-types` (generated from the Kubernetes OpenAPI specification). Each object
// becomes an object literal annotated with its type, so an unknown field anywhere is an excess-
// property error (what `kubectl --validate=strict` rejects), and a wrong type, a missing required
// field or an unknown apiVersion/kind fails too. Quantities must be written as strings.
//
// Then the rules (references and hardening): selectors match pod templates, Services, probes,
// Ingress backends, HPAs and PDBs point at something that exists, ConfigMaps and Secrets referenced
// exist (Secrets of targets that ship none are listed as supplied by the cluster), every container
// runs non-root, read-only, without privilege escalation or capabilities, with RuntimeDefault
// seccomp, resource requests and limits, and images carry an explicit tag. And the MongoDB init Job
// grants the application user every database a service's MongoDB store opens.
//
//   node scripts/deploy-validate.mjs [--deploy-dir DIR] [--target base|overlays/NAME]... [--skip-dockerfiles]
//
// Needs kubectl (or KUBECTL=/path/to/kubectl) and the devDependencies typescript, kubernetes-types,
// yaml and dockerfile-utils. Exits 1 with one line per problem.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

/** What each target must satisfy beyond the common rules; targets not named get the defaults. */
const targetPolicies = {
  // The base names images without a tag: every overlay sets one.
  base: { externalSecrets: true, taggedImages: false },
  'overlays/development': { externalSecrets: false },
  'overlays/production': { externalSecrets: true, pinnedImages: true },
};
const defaultPolicy = { externalSecrets: true, taggedImages: true, pinnedImages: false };

const workloadKinds = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob', 'ReplicaSet']);
const longRunningKinds = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet']);

// ---------------------------------------------------------------------------------------------
// Building

export function findKubectl() {
  const candidate = process.env.KUBECTL || 'kubectl';
  const probe = spawnSync(candidate, ['version', '--client'], { encoding: 'utf8' });
  if (probe.error) {
    throw new Error(`kubectl not found (${candidate}): install it (docs/operations.md, "Validating") or set KUBECTL`);
  }
  return candidate;
}

export function listTargets(deployDir) {
  const targets = ['base'];
  const overlays = join(deployDir, 'overlays');
  if (existsSync(overlays)) {
    for (const name of readdirSync(overlays).sort()) {
      if (statSync(join(overlays, name)).isDirectory()) targets.push(`overlays/${name}`);
    }
  }
  return targets;
}

export function buildTarget(kubectl, deployDir, target) {
  const result = spawnSync(kubectl, ['kustomize', join(deployDir, target)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  if (result.status !== 0) return { error: (result.stderr || result.stdout).trim() };
  const { parseAllDocuments } = require('yaml');
  const objects = [];
  for (const document of parseAllDocuments(result.stdout)) {
    if (document.errors.length > 0) return { error: document.errors.map((error) => error.message).join('; ') };
    const value = document.toJS();
    if (value !== null && value !== undefined) objects.push(value);
  }
  return { objects };
}

// ---------------------------------------------------------------------------------------------
// Schema: TypeScript against kubernetes-types

const typesDir = () => dirname(require.resolve('kubernetes-types/package.json'));

/** `apps/v1` -> `apps/v1`, `v1` -> `core/v1`, `networking.k8s.io/v1` -> `networking/v1`. */
function typesModule(apiVersion) {
  if (typeof apiVersion !== 'string') return undefined;
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['core', apiVersion];
  return `${group.replace(/\.k8s\.io$/, '')}/${version}`;
}

const declaredKinds = new Map();
function declaresKind(module, kind) {
  if (!declaredKinds.has(module)) {
    const file = join(typesDir(), `${module}.d.ts`);
    declaredKinds.set(module, existsSync(file) ? readFileSync(file, 'utf8') : '');
  }
  const text = declaredKinds.get(module);
  return typeof kind === 'string' && /^[A-Z][A-Za-z0-9]*$/.test(kind) && text.includes(`kind?: "${kind}";`) && text.includes(`export interface ${kind} {`);
}

/** null means "unset" to the API server; the types have no null, so null fields are left out. */
function withoutNulls(value) {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, withoutNulls(v)]));
  }
  return value;
}

/** Writes `value` as a TypeScript literal, one property per line, remembering each line's path. */
function literalLines(value, path, out, indent = '', prefix = '', suffix = '') {
  if (Array.isArray(value) && value.length > 0) {
    out.push({ text: `${indent}${prefix}[`, path });
    value.forEach((item, index) => literalLines(item, [...path, index], out, `${indent}  `, '', index < value.length - 1 ? ',' : ''));
    out.push({ text: `${indent}]${suffix}`, path });
  } else if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length > 0) {
    const keys = Object.keys(value);
    out.push({ text: `${indent}${prefix}{`, path });
    const property = (key) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key));
    keys.forEach((key, index) => literalLines(value[key], [...path, key], out, `${indent}  `, `${property(key)}: `, index < keys.length - 1 ? ',' : ''));
    out.push({ text: `${indent}}${suffix}`, path });
  } else {
    out.push({ text: `${indent}${prefix}${JSON.stringify(value)}${suffix}`, path });
  }
}

export const describe = (object) => `${object?.kind ?? '?'}/${object?.metadata?.name ?? '?'}`;

export function formatPath(path) {
  return path.map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${part}`)).join('');
}

/**
 * The parsed library files (lib.es5.d.ts, kubernetes-types) by file name: the same for every check in
 * a process, so the tests' many validations parse them once.
 */
const librarySourceFiles = new Map();

/**
 * Type-checks the objects of every target in one TypeScript program. Answers the problems, each
 * naming the target, the object and the field.
 */
export function checkSchemas(targets) {
  const ts = require('typescript');
  const problems = [];
  const files = new Map();
  const fileInfo = new Map();
  targets.forEach(({ target, objects }, targetIndex) => {
    const lines = [];
    const owners = [];
    const imports = new Map();
    const body = [];
    objects.forEach((raw, index) => {
      const module = typesModule(raw?.apiVersion);
      if (!module || !declaresKind(module, raw?.kind)) {
        problems.push(`${target}: ${describe(raw)}: unknown apiVersion/kind ${raw?.apiVersion}/${raw?.kind}`);
        return;
      }
      const alias = module.replace(/[^A-Za-z0-9]/g, '_');
      imports.set(alias, module);
      const literal = [];
      literalLines(withoutNulls(raw), [], literal, '', `const object${index}: ${alias}.${raw.kind} = `, ';');
      for (const line of literal) {
        body.push(line.text);
        owners.push({ object: raw, path: line.path });
      }
    });
    // By absolute path: the types resolve wherever the package was installed.
    for (const [alias, module] of imports) lines.push(`import type * as ${alias} from ${JSON.stringify(join(typesDir(), module))};`);
    const header = lines.length;
    lines.push(...body, 'export {};');
    const fileName = join(root, '.deploy-validate', `target${targetIndex}.ts`);
    files.set(fileName, lines.join('\n'));
    fileInfo.set(fileName, { target, header, owners });
  });

  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    // Only what the API types use (Array, Record, ...): the default libraries (DOM) cost seconds.
    lib: ['lib.es5.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, languageVersion, ...rest) => {
    if (files.has(resolve(name))) return ts.createSourceFile(name, files.get(resolve(name)), languageVersion, true);
    if (!librarySourceFiles.has(name)) librarySourceFiles.set(name, getSourceFile(name, languageVersion, ...rest));
    return librarySourceFiles.get(name);
  };
  host.fileExists = (name) => files.has(resolve(name)) || fileExists(name);
  host.readFile = (name) => files.get(resolve(name)) ?? readFile(name);
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ');
    const info = diagnostic.file && fileInfo.get(resolve(diagnostic.file.fileName));
    if (!info || diagnostic.start === undefined) {
      problems.push(`schema check: ${message}`);
      continue;
    }
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const owner = info.owners[line - info.header];
    if (!owner) {
      problems.push(`${info.target}: ${message}`);
      continue;
    }
    // The message names the TypeScript type; the path names the field.
    problems.push(`${info.target}: ${describe(owner.object)}: ${formatPath(owner.path) || '(object)'}: ${message}`);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Rules: references between objects and hardening

const dns1123Subdomain = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const dns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const ianaServiceName = (name) => name.length <= 15 && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/.test(name) && /[a-z]/.test(name) && !name.includes('--');

function podSpecOf(object) {
  if (object.kind === 'CronJob') return object.spec?.jobTemplate?.spec?.template;
  return object.spec?.template;
}

const matches = (selector, labels) => Object.entries(selector ?? {}).every(([key, value]) => labels?.[key] === value);

function selectorMatches(selector, labels) {
  if (!selector) return false;
  if (!matches(selector.matchLabels, labels)) return false;
  for (const expression of selector.matchExpressions ?? []) {
    const value = labels?.[expression.key];
    const ok = {
      In: () => expression.values?.includes(value),
      NotIn: () => !expression.values?.includes(value),
      Exists: () => value !== undefined,
      DoesNotExist: () => value === undefined,
    }[expression.operator];
    if (!ok || !ok()) return false;
  }
  return true;
}

export function checkRules(target, objects, policy) {
  const problems = [];
  const problem = (object, text) => problems.push(`${target}: ${describe(object)}: ${text}`);
  const byKind = (kind) => objects.filter((object) => object.kind === kind);
  const find = (kind, name) => objects.find((object) => object.kind === kind && object.metadata?.name === name);
  const workloads = objects.filter((object) => workloadKinds.has(object.kind));
  const external = new Set();

  for (const object of objects) {
    const name = object.metadata?.name;
    if (typeof name !== 'string' || !dns1123Subdomain.test(name) || name.length > 253) problem(object, `metadata.name "${name}" is not a DNS-1123 subdomain`);
    if (object.kind === 'Service' && typeof name === 'string' && (!dns1035Label.test(name) || name.length > 63)) problem(object, 'a Service name must be a DNS-1035 label');
    if (object.kind === 'ServiceAccount' && object.automountServiceAccountToken !== false) problem(object, 'automountServiceAccountToken must be false');
  }

  const secretRef = (object, secretName, optional, where) => {
    if (find('Secret', secretName)) return;
    if (policy.externalSecrets) external.add(secretName);
    else if (!optional) problem(object, `${where} refers to Secret ${secretName}, which this target does not generate`);
  };
  const configMapRef = (object, mapName, key, optional, where) => {
    const map = find('ConfigMap', mapName);
    if (!map) {
      if (!optional) problem(object, `${where} refers to a missing ConfigMap ${mapName}`);
    } else if (key !== undefined && !(key in (map.data ?? {})) && !optional) {
      problem(object, `${where} refers to a missing key ${key} of ConfigMap ${mapName}`);
    }
  };

  for (const workload of workloads) {
    const template = podSpecOf(workload);
    const spec = template?.spec;
    if (!spec) continue;
    if (workload.kind !== 'Job' && workload.kind !== 'CronJob' && !selectorMatches(workload.spec?.selector, template.metadata?.labels)) {
      problem(workload, 'spec.selector does not match the pod template labels');
    }
    if (spec.automountServiceAccountToken !== false) problem(workload, 'the pod must set automountServiceAccountToken: false');
    if (spec.serviceAccountName && !find('ServiceAccount', spec.serviceAccountName)) problem(workload, `serviceAccountName ${spec.serviceAccountName} does not exist`);
    const podContext = spec.securityContext ?? {};
    const volumes = new Map((spec.volumes ?? []).map((volume) => [volume.name, volume]));
    for (const volume of spec.volumes ?? []) {
      if (volume.configMap) configMapRef(workload, volume.configMap.name, undefined, volume.configMap.optional, `volume ${volume.name}`);
      if (volume.secret) secretRef(workload, volume.secret.secretName, volume.secret.optional, `volume ${volume.name}`);
    }
    const containers = [...(spec.initContainers ?? []).map((c) => ['initContainer', c]), ...(spec.containers ?? []).map((c) => ['container', c])];
    for (const [role, container] of containers) {
      const where = `${role} ${container.name}`;
      const context = container.securityContext ?? {};
      if (context.allowPrivilegeEscalation !== false) problem(workload, `${where}: allowPrivilegeEscalation must be false`);
      if (context.readOnlyRootFilesystem !== true) problem(workload, `${where}: readOnlyRootFilesystem must be true`);
      if (!(context.capabilities?.drop ?? []).includes('ALL')) problem(workload, `${where}: capabilities must drop ALL`);
      if ((context.capabilities?.add ?? []).length > 0) problem(workload, `${where}: adds capabilities`);
      if (context.privileged === true) problem(workload, `${where}: is privileged`);
      if ((context.runAsNonRoot ?? podContext.runAsNonRoot) !== true) problem(workload, `${where}: runAsNonRoot must be true`);
      if ((context.runAsUser ?? podContext.runAsUser) === 0) problem(workload, `${where}: runs as UID 0`);
      if ((context.seccompProfile ?? podContext.seccompProfile)?.type !== 'RuntimeDefault') problem(workload, `${where}: seccompProfile must be RuntimeDefault`);
      for (const kind of ['requests', 'limits']) {
        for (const resource of ['cpu', 'memory']) {
          if (container.resources?.[kind]?.[resource] === undefined) problem(workload, `${where}: resources.${kind}.${resource} is missing`);
        }
      }
      const image = String(container.image ?? '');
      const digest = image.includes('@sha256:');
      const tag = digest ? undefined : image.slice(image.lastIndexOf('/') + 1).split(':')[1];
      if (policy.taggedImages && !digest && (!tag || tag === 'latest')) problem(workload, `${where}: image ${image} needs an explicit tag (not latest) or digest`);
      if (policy.pinnedImages && !digest && ['dev', 'main', 'edge', 'nightly'].includes(tag)) problem(workload, `${where}: image ${image} is not pinned to a release`);
      const ports = container.ports ?? [];
      const portNames = new Set();
      for (const port of ports) {
        if (port.name !== undefined) {
          if (!ianaServiceName(port.name)) problem(workload, `${where}: port name "${port.name}" is not a valid IANA service name (15 characters at most)`);
          if (portNames.has(port.name)) problem(workload, `${where}: port name ${port.name} is used twice`);
          portNames.add(port.name);
        }
      }
      const hasPort = (port) => (typeof port === 'string' ? portNames.has(port) : ports.some((p) => p.containerPort === port));
      if (role === 'container' && longRunningKinds.has(workload.kind)) {
        if (!container.readinessProbe) problem(workload, `${where}: has no readinessProbe`);
        if (!container.livenessProbe) problem(workload, `${where}: has no livenessProbe`);
      }
      for (const probeName of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
        const probe = container[probeName];
        if (!probe) continue;
        const port = probe.grpc?.port ?? probe.httpGet?.port ?? probe.tcpSocket?.port;
        if (port !== undefined && !hasPort(port)) problem(workload, `${where}: ${probeName} uses port ${port}, which the container does not declare`);
      }
      for (const mount of container.volumeMounts ?? []) {
        if (!volumes.has(mount.name)) {
          const claim = (workload.spec?.volumeClaimTemplates ?? []).some((template) => template.metadata?.name === mount.name);
          if (!claim) problem(workload, `${where}: volumeMount ${mount.name} has no volume`);
        }
      }
      for (const source of container.envFrom ?? []) {
        if (source.configMapRef) configMapRef(workload, source.configMapRef.name, undefined, source.configMapRef.optional, `${where} envFrom`);
        if (source.secretRef) secretRef(workload, source.secretRef.name, source.secretRef.optional, `${where} envFrom`);
      }
      const envNames = new Set();
      for (const variable of container.env ?? []) {
        if (envNames.has(variable.name)) problem(workload, `${where}: env ${variable.name} is set twice`);
        envNames.add(variable.name);
        const { configMapKeyRef, secretKeyRef } = variable.valueFrom ?? {};
        if (configMapKeyRef) configMapRef(workload, configMapKeyRef.name, configMapKeyRef.key, configMapKeyRef.optional, `${where} env ${variable.name}`);
        if (secretKeyRef) {
          const secret = find('Secret', secretKeyRef.name);
          if (secret && !(secretKeyRef.key in { ...(secret.data ?? {}), ...(secret.stringData ?? {}) }) && !secretKeyRef.optional) {
            problem(workload, `${where} env ${variable.name} refers to a missing key ${secretKeyRef.key} of Secret ${secretKeyRef.name}`);
          }
          secretRef(workload, secretKeyRef.name, secretKeyRef.optional, `${where} env ${variable.name}`);
        }
      }
    }
  }

  const podsSelectedBy = (selector) => workloads.filter((workload) => matches(selector, podSpecOf(workload)?.metadata?.labels));
  for (const service of byKind('Service')) {
    const selected = podsSelectedBy(service.spec?.selector);
    if (!service.spec?.selector || selected.length === 0) {
      problem(service, 'its selector matches no pod template');
      continue;
    }
    for (const port of service.spec?.ports ?? []) {
      if (port.name !== undefined && !ianaServiceName(port.name) && !dns1035Label.test(port.name)) problem(service, `port name "${port.name}" is not valid`);
      if (typeof port.targetPort === 'string') {
        const declared = selected.some((workload) =>
          (podSpecOf(workload).spec?.containers ?? []).some((container) => (container.ports ?? []).some((p) => p.name === port.targetPort)),
        );
        if (!declared) problem(service, `targetPort ${port.targetPort} is not a container port of the pods it selects`);
      }
    }
  }
  // A pod that reads NATS_URL (its job leases, events and notices) or MONGODB_URI (its store) must be
  // allowed to reach that server by the egress policies that select it (without any egress policy
  // nothing is restricted), and the server pods' own ingress policies must admit it: egress alone
  // opens one side of the connection.
  const readsVariable = (container, name) =>
    (container.env ?? []).some((variable) => variable.name === name) ||
    (container.envFrom ?? []).some((source) => source.configMapRef && name in (find('ConfigMap', source.configMapRef.name)?.data ?? {}));
  const egressPolicies = byKind('NetworkPolicy').filter((netpol) => (netpol.spec?.policyTypes ?? []).includes('Egress'));
  const servers = [
    { variable: 'NATS_URL', name: 'nats', label: 'NATS', port: 4222 },
    { variable: 'MONGODB_URI', name: 'mongodb', label: 'MongoDB', port: 27017 },
  ];
  for (const server of servers) {
    const allowsServer = (netpol) =>
      (netpol.spec?.egress ?? []).some(
        (rule) =>
          (rule.ports ?? []).some((port) => port.port === server.port) &&
          (rule.to === undefined || rule.to.some((peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === server.name || peer.ipBlock)),
      );
    const serverIngressPolicies = byKind('NetworkPolicy').filter(
      (netpol) => (netpol.spec?.policyTypes ?? []).includes('Ingress') && netpol.spec?.podSelector?.matchLabels?.['app.kubernetes.io/name'] === server.name,
    );
    const admitsToServer = (netpol, labels) =>
      (netpol.spec?.ingress ?? []).some(
        (rule) =>
          (rule.ports === undefined || rule.ports.some((port) => port.port === server.port)) &&
          (rule.from === undefined || rule.from.some((peer) => peer.podSelector && matches(peer.podSelector.matchLabels, labels))),
      );
    for (const workload of workloads) {
      const template = podSpecOf(workload);
      if (!(template?.spec?.containers ?? []).some((container) => readsVariable(container, server.variable))) continue;
      const selecting = egressPolicies.filter((netpol) => matches(netpol.spec?.podSelector?.matchLabels, template.metadata?.labels));
      if (selecting.length > 0 && !selecting.some(allowsServer)) {
        problem(workload, `reads ${server.variable}, but no egress NetworkPolicy selecting it allows ${server.label} (port ${server.port})`);
      }
      if (serverIngressPolicies.length > 0 && !serverIngressPolicies.some((netpol) => admitsToServer(netpol, template.metadata?.labels))) {
        problem(workload, `reads ${server.variable}, but no ingress NetworkPolicy of the ${server.label} pods admits it on port ${server.port}`);
      }
    }
  }
  for (const ingress of byKind('Ingress')) {
    const backends = [ingress.spec?.defaultBackend, ...(ingress.spec?.rules ?? []).flatMap((rule) => (rule.http?.paths ?? []).map((path) => path.backend))].filter(Boolean);
    for (const backend of backends) {
      if (!backend.service) continue;
      const service = find('Service', backend.service.name);
      if (!service) {
        problem(ingress, `backend Service ${backend.service.name} does not exist`);
        continue;
      }
      const port = backend.service.port ?? {};
      const ok = (service.spec?.ports ?? []).some((p) => (port.name !== undefined ? p.name === port.name : p.port === port.number));
      if (!ok) problem(ingress, `backend port ${port.name ?? port.number} is not a port of Service ${backend.service.name}`);
    }
  }
  for (const hpa of byKind('HorizontalPodAutoscaler')) {
    const ref = hpa.spec?.scaleTargetRef ?? {};
    if (!find(ref.kind, ref.name)) problem(hpa, `scaleTargetRef ${ref.kind}/${ref.name} does not exist`);
    if (hpa.spec?.minReplicas > hpa.spec?.maxReplicas) problem(hpa, 'minReplicas is above maxReplicas');
  }
  for (const pdb of byKind('PodDisruptionBudget')) {
    if (!workloads.some((workload) => selectorMatches(pdb.spec?.selector, podSpecOf(workload)?.metadata?.labels))) problem(pdb, 'its selector matches no pod template');
  }
  return { problems, externalSecrets: [...external].sort() };
}

// ---------------------------------------------------------------------------------------------

/**
 * The variable a process reads its listen host from and its default port, as its configuration says:
 * a service through runtime's readListenAddress (VOICE_<SERVICE>_HOST, the port in runtime's table),
 * the gateway in its own words.
 */
function listenSettings(read, image) {
  const config = read(join(image.workspace, 'src/config.ts'));
  if (config.includes(`readListenAddress(env, '${image.name}')`)) {
    const table = read('services/runtime/src/config/services.ts');
    const port = new RegExp(`^  '?${image.name}'?: (\\d+),$`, 'm').exec(table)?.[1];
    return { hostVariable: `VOICE_${image.name.toUpperCase().replace(/-/g, '_')}_HOST`, port: port === undefined ? undefined : Number(port) };
  }
  const media = /readMediaListenAddress\(env, '([A-Za-z]+)'\)/.exec(config)?.[1];
  if (media !== undefined) {
    const table = read('services/runtime/src/config/services.ts');
    const entry = new RegExp(`^  ${media}: \\{ prefix: '([A-Z_]+)', port: (\\d+) \\},$`, 'm').exec(table);
    return { hostVariable: entry && `${entry[1]}_HOST`, port: entry ? Number(entry[2]) : undefined };
  }
  const host = /readString\(env, '([A-Z_]+)', '[^']*'\)/.exec(config.slice(config.indexOf('host:')))?.[1];
  const port = /readPort\(env, '[A-Z_]*PORT', (\d+)\)/.exec(config)?.[1];
  return { hostVariable: host, port: port === undefined ? undefined : Number(port) };
}

/**
 * The one Dockerfile (at the repository root) and the images it builds (deploy/docker/images.mjs):
 * it passes dockerfile-utils' linter (unknown instructions, bad arguments, bad ports, ...), copies
 * every workspace's package.json, and keeps the rules of the images; every process has an image
 * whose port and host variable are the ones its configuration reads; the gateway's image is built
 * from and runs with no service's code.
 */
export async function checkDockerfiles({ read = (path) => readFileSync(join(root, path), 'utf8') } = {}) {
  const problems = [];
  const { images } = await import(join(root, 'deploy/docker/images.mjs'));
  const { buildClosure, runtimeClosure } = await import(join(root, 'deploy/docker/workspaces.mjs'));
  const { validate } = require('dockerfile-utils');
  const path = 'Dockerfile';
  let text;
  try {
    text = read(path);
  } catch {
    return { problems: [`${path} is missing`], count: images.length };
  }
  for (const diagnostic of validate(text, {})) problems.push(`${path}:${diagnostic.range.start.line + 1}: ${diagnostic.message}`);
  const workspaces = JSON.parse(read('package.json')).workspaces;
  const copied = [...text.matchAll(/^COPY (\S+)\/package\.json \1\/$/gm)].map((match) => match[1]);
  for (const workspace of workspaces) if (!copied.includes(workspace)) problems.push(`${path}: the manifests stage lacks COPY ${workspace}/package.json ${workspace}/`);
  for (const workspace of copied) if (!workspaces.includes(workspace)) problems.push(`${path}: copies ${workspace}/package.json, which is no workspace`);
  const stages = text.split(/^FROM /m);
  const runtime = stages[stages.length - 1];
  const rules = [
    [/^USER [1-9][0-9]*:[1-9][0-9]*$/m, 'a numeric non-root USER uid:gid'],
    [/^STOPSIGNAL SIGTERM$/m, 'STOPSIGNAL SIGTERM'],
    [/^ENV NODE_ENV=production\b/m, 'ENV NODE_ENV=production'],
    [/^ {4}\$\{HOST_VARIABLE\}=0\.0\.0\.0 \\$/m, 'the listen host ${HOST_VARIABLE}=0.0.0.0 in its ENV'],
    [/^EXPOSE \$\{PORT\} 9464$/m, 'EXPOSE ${PORT} 9464'],
    [/^CMD \["node", (?:"--[^"]+", )*"main\.js"\]$/m, 'CMD ["node", <flags>, "main.js"] in exec form (node is PID 1 and gets SIGTERM)'],
    [/^WORKDIR \//m, 'a WORKDIR'],
  ];
  for (const [pattern, rule] of rules) if (!pattern.test(runtime)) problems.push(`${path}: runtime stage lacks ${rule}`);
  if (!/^ARG NODE_IMAGE=node:\d+\.\d+\.\d+-[a-z]+-slim(@sha256:[0-9a-f]{64})?$/m.test(text)) problems.push(`${path}: the base image must be pinned to a full version tag`);

  for (const workspace of workspaces) {
    if (existsSync(join(root, workspace, 'Dockerfile'))) problems.push(`${workspace}/Dockerfile: the root Dockerfile builds every image (add a row to deploy/docker/images.mjs instead)`);
  }
  const processes = workspaces.filter((workspace) => existsSync(join(root, workspace, 'src/main.ts')) && (workspace === 'gateway' || workspace.startsWith('services/')));
  for (const workspace of processes) if (!images.some((image) => image.workspace === workspace)) problems.push(`deploy/docker/images.mjs: ${workspace} has no image`);
  for (const image of images) {
    if (!workspaces.includes(image.workspace)) {
      problems.push(`deploy/docker/images.mjs: ${image.name}'s workspace ${image.workspace} is no workspace`);
      continue;
    }
    const { hostVariable, port } = listenSettings(read, image);
    if (hostVariable !== image.hostVariable) problems.push(`deploy/docker/images.mjs: ${image.name}'s configuration reads no ${image.hostVariable}`);
    if (port !== image.port) problems.push(`deploy/docker/images.mjs: ${image.name} listens on another port than ${image.port} by default`);
  }
  const gateway = images.find((image) => image.name === 'gateway');
  if (gateway) {
    const serviceCode = [...buildClosure(root, gateway.workspace), ...runtimeClosure(root, gateway.workspace)].filter((ws) => ws.startsWith('services/') && ws !== 'services/runtime');
    if (serviceCode.length > 0) problems.push(`the gateway's image would hold service code: ${[...new Set(serviceCode)].join(', ')}`);
  }
  return { problems, count: images.length };
}

/**
 * Problems of the MongoDB init Job's list of services: every service whose store can be MongoDB
 * (services/<name>/src/store/mongo.ts) needs readWrite on its database, or it cannot start in production.
 */
export function checkMongoDatabases(deployDir) {
  const file = join('components', 'mongodb', 'init-replica-set.js');
  const listed = /const services = \[([^\]]*)\]/.exec(readFileSync(join(deployDir, file), 'utf8'));
  if (!listed) return [`${file}: names no \`const services = [...]\` list`];
  const granted = new Set([...listed[1].matchAll(/'([^']+)'/g)].map((match) => match[1]));
  const servicesDir = join(root, 'services');
  return readdirSync(servicesDir)
    .filter((name) => existsSync(join(servicesDir, name, 'src', 'store', 'mongo.ts')) && !granted.has(name))
    .map((name) => `${file}: the application user gets no readWrite on the database of ${name}, whose store is MongoDB in production`);
}

/**
 * Every process of runtime's port table (each service, the webhooks delivery worker, the campaigns
 * dialer) has a Deployment of its name in a target that deploys the platform (one with the gateway):
 * a process without one runs nowhere, and its work (a queue, a job) waits for nobody.
 */
export function checkProcessesDeployed(target, objects, read = (path) => readFileSync(join(root, path), 'utf8')) {
  const deployments = new Set(objects.filter((object) => object.kind === 'Deployment').map((object) => object.metadata?.name));
  if (!deployments.has('gateway')) return [];
  const table = /export const servicePorts = \{([\s\S]*?)\} as const;/.exec(read('services/runtime/src/config/services.ts'))?.[1];
  if (table === undefined) return ['services/runtime/src/config/services.ts: no servicePorts table found'];
  return [...table.matchAll(/^ {2}'?([a-z-]+)'?: \d+,$/gm)]
    .map((match) => match[1])
    .filter((name) => !deployments.has(name))
    .map((name) => `${target}: no Deployment runs ${name}, a process of runtime's servicePorts table`);
}

export async function validateDeploy({ deployDir = join(root, 'deploy'), targets, skipDockerfiles = false, log = console.log } = {}) {
  const problems = [];
  if (!skipDockerfiles) {
    const dockerfiles = await checkDockerfiles();
    problems.push(...dockerfiles.problems);
    if (dockerfiles.problems.length === 0) log(`Dockerfile: lint-clean, and right for its ${dockerfiles.count} images`);
  }
  problems.push(...checkMongoDatabases(deployDir));
  const kubectl = findKubectl();
  const built = [];
  for (const target of targets ?? listTargets(deployDir)) {
    const result = buildTarget(kubectl, deployDir, target);
    if (result.error) {
      problems.push(`${target}: kubectl kustomize failed: ${result.error}`);
      continue;
    }
    built.push({ target, objects: result.objects });
  }
  problems.push(...checkSchemas(built));
  for (const { target, objects } of built) {
    const policy = { ...defaultPolicy, ...(targetPolicies[target] ?? {}) };
    const rules = checkRules(target, objects, policy);
    problems.push(...rules.problems, ...checkProcessesDeployed(target, objects));
    const kinds = new Map();
    for (const object of objects) kinds.set(object.kind, (kinds.get(object.kind) ?? 0) + 1);
    const summary = [...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ');
    log(`${target}: ${objects.length} objects (${summary})`);
    if (rules.externalSecrets.length > 0) log(`  Secrets the cluster must supply: ${rules.externalSecrets.join(', ')}`);
  }
  return problems;
}

async function main() {
  const args = process.argv.slice(2);
  const options = { targets: [] };
  for (let i = 0; i < args.length; i += 1) {
    if (args[i] === '--deploy-dir') options.deployDir = resolve(args[++i]);
    else if (args[i] === '--target') options.targets.push(args[++i]);
    else if (args[i] === '--skip-dockerfiles') options.skipDockerfiles = true;
    else {
      console.error(`unknown argument ${args[i]}`);
      process.exit(2);
    }
  }
  if (options.targets.length === 0) delete options.targets;
  let problems;
  try {
    problems = await validateDeploy(options);
  } catch (error) {
    console.error(`deploy validation could not run: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
  if (problems.length > 0) {
    for (const line of problems) console.error(`✗ ${line}`);
    console.error(`deploy validation failed: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log(`deploy validation passed (${relative(process.cwd(), options.deployDir ?? join(root, 'deploy')) || '.'})`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
