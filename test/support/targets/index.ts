export { generateCertificate, generateTestCa, DAY_MS, type Pem, type CertificateOptions } from './certificates.ts';
export { startHttpTarget, startHttpsTarget, type Handler, type RunningTarget } from './http.target.ts';
export { startTcpTarget, startSilentTarget, closedPort, type TcpTarget } from './tcp.target.ts';
export { startDnsServer, type DnsRecords, type DnsServer } from './dns.target.ts';
export { startGrpcHealthServer, type GrpcHealthServer } from './grpc.target.ts';
export { startSmtpTarget, type SmtpTarget, type SmtpTargetOptions } from './smtp.target.ts';
export { startWebSocketTarget, type WebSocketTarget } from './websocket.target.ts';
export { startRedisServer, type RedisServerTarget, type RedisServerOptions } from './redis-server.target.ts';
