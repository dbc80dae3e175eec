// A @grpc/grpc-js client for any generated service: unary methods only, messages encoded with
// the generated protobuf-es schemas, exactly as a third-party gRPC client would call us.
import * as grpc from '@grpc/grpc-js';
import { create, fromBinary, toBinary, type DescMessage, type DescService, type MessageInitShape } from '@bufbuild/protobuf';

export type UnaryCall = (request: unknown, metadata: grpc.Metadata) => Promise<any>;

export function grpcJsClient(service: DescService, address: string): { call: Record<string, UnaryCall>; close(): void } {
  const definition: Record<string, grpc.MethodDefinition<any, any>> = {};
  for (const method of service.methods) {
    if (method.methodKind !== 'unary') continue;
    const codec = <D extends DescMessage>(schema: D) => ({
      serialize: (message: MessageInitShape<D>) => Buffer.from(toBinary(schema, create(schema, message))),
      deserialize: (bytes: Buffer) => fromBinary(schema, bytes),
    });
    const input = codec(method.input);
    const output = codec(method.output);
    definition[method.name] = {
      path: `/${service.typeName}/${method.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: input.serialize,
      requestDeserialize: input.deserialize,
      responseSerialize: output.serialize,
      responseDeserialize: output.deserialize,
    };
  }
  const Client = grpc.makeGenericClientConstructor(definition, service.name);
  const client = new Client(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & Record<string, Function>;
  const call: Record<string, UnaryCall> = {};
  for (const name of Object.keys(definition)) {
    call[name] = (request, metadata) =>
      new Promise((resolve, reject) => {
        client[name]!.call(client, request, metadata, (error: grpc.ServiceError | null, response: unknown) => (error ? reject(error) : resolve(response)));
      });
  }
  return { call, close: () => client.close() };
}
