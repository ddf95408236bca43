// The baseline for `npm run bench`: a bare Fastify route on this machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
console.log(`listening ${app.server.address().port}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
