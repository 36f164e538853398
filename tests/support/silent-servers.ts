// Points the app at a database and a Temporal server that accept connections and never answer (a hung process,
// the worst case for a health check). Import it before any app module.
import net from "node:net";

const sockets = new Set<net.Socket>();
async function silentServer(): Promise<net.Server> {
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

export const silentDatabase = await silentServer();
export const silentTemporal = await silentServer();
const portOf = (server: net.Server) => (server.address() as net.AddressInfo).port;
process.env.DATABASE_URL = `postgresql://postgres:postgres@127.0.0.1:${portOf(silentDatabase)}/reelsmith`;
process.env.TEMPORAL_ADDRESS = `127.0.0.1:${portOf(silentTemporal)}`;

export function closeSilentServers() {
  for (const socket of sockets) socket.destroy();
  silentDatabase.close();
  silentTemporal.close();
}
