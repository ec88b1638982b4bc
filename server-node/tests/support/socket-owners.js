'use strict';
// Which process holds the server end of a TCP connection, seen from outside
// the server: /proc/net/tcp{,6} maps a connection (local and remote port) to
// its socket inode, and /proc/<pid>/fd lists the inodes a process holds
// ("socket:[inode]"). Linux only, as the kit's measurements are.

const fs = require('node:fs');

const ESTABLISHED = '01';

/** inode of each established connection whose local port is `serverPort`, keyed by the remote (client) port. */
function serverSideInodes(serverPort) {
  const byClientPort = new Map();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(file)) continue;
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      const localPort = parseInt(fields[1].split(':').pop(), 16);
      const remotePort = parseInt(fields[2].split(':').pop(), 16);
      if (localPort === serverPort && fields[3] === ESTABLISHED) byClientPort.set(remotePort, fields[9]);
    }
  }
  return byClientPort;
}

/** The socket inodes process `pid` has open. */
function socketInodesOf(pid) {
  const inodes = new Set();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    let target;
    try {
      target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed meanwhile
    }
    const match = /^socket:\[(\d+)\]$/.exec(target);
    if (match) inodes.add(match[1]);
  }
  return inodes;
}

/**
 * @param {number} serverPort the server's listening port
 * @param {number[]} clientPorts local ports of the client ends
 * @param {number[]} pids candidate server processes
 * @returns {Map<number, number[]>} client port -> pids holding the server end
 *          (exactly one pid each when every connection is served by one process)
 */
function ownersOf(serverPort, clientPorts, pids) {
  const inodes = serverSideInodes(serverPort);
  const held = new Map(pids.map((pid) => [pid, socketInodesOf(pid)]));
  const owners = new Map();
  for (const clientPort of clientPorts) {
    const inode = inodes.get(clientPort);
    owners.set(clientPort, inode === undefined ? [] : pids.filter((pid) => held.get(pid).has(inode)));
  }
  return owners;
}

module.exports = { ownersOf };
