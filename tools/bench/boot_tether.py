"""The tether side of boot.py: servers booted from existing volumes, one
at a time or many at once, until ACTIVE."""

import threading
import time

import aio_process
import compute_ops

FLAVOR = compute_ops.FLAVOR     # m1.nano


class BootTether(compute_ops.Tether):
    """Boots from volumes made beforehand (compute_ops.Tether makes them,
    polls and cleans up)."""

    def __init__(self, conn, interval, timeout, connect):
        super().__init__(conn, interval, timeout)
        # A new openstacksdk connection (one per thread of a concurrent
        # boot: a connection is not shared between threads).
        self.connect = connect

    def _post(self, conn, volume_id, name):
        server = conn.compute.create_server(
            name=name, flavor_id=FLAVOR, networks='none',
            block_device_mapping=[{
                'uuid': volume_id, 'source_type': 'volume',
                'destination_type': 'volume', 'boot_index': 0}])
        self.servers.add(server.id)
        self.made.add(server.id)
        return server.id

    def boot(self, volume_id, name):
        """One boot: {'server', 'volume', 'wall_start', 'post' (s to the
        202), 'active' (s to ACTIVE)}."""
        wall = time.time()
        t0 = time.perf_counter()
        server_id = self._post(self.conn, volume_id, name)
        t202 = time.perf_counter()
        _, t_active = aio_process.wait_for(
            lambda: self._server_status(server_id), self.interval,
            self.timeout, 'boot of %s' % server_id)
        return {'server': server_id, 'volume': volume_id,
                'wall_start': wall, 'post': t202 - t0,
                'active': t_active - t0}

    def boot_many(self, volume_ids, name):
        """One POST per volume, from a thread each, released together;
        one poller lists the servers until all are ACTIVE (a poll per
        server would load the 2 cores more than the boots). Returns
        (wall s from the first POST to the last ACTIVE seen, [boots])."""
        count = len(volume_ids)
        conns = [self.connect() for _ in range(count)]
        gate = threading.Barrier(count + 1)
        boots = [None] * count

        def post(i):
            gate.wait()
            wall = time.time()
            t0 = time.perf_counter()
            try:
                server_id = self._post(conns[i], volume_ids[i],
                                       '%s-%d' % (name, i))
            except Exception as exc:  # noqa: BLE001 - raised below
                boots[i] = exc
                return
            boots[i] = {'server': server_id, 'volume': volume_ids[i],
                        'wall_start': wall, 't0': t0,
                        'post': time.perf_counter() - t0}
        threads = [threading.Thread(target=post, args=(i,))
                   for i in range(count)]
        for t in threads:
            t.start()
        gate.wait()
        start = time.perf_counter()
        for t in threads:
            t.join()
        for boot in boots:
            if isinstance(boot, Exception):
                raise boot
        by_id = {b['server']: b for b in boots}
        deadline = start + self.timeout
        while any('active' not in b for b in boots):
            if time.perf_counter() > deadline:
                raise aio_process.TimedOut('concurrent boot: not all '
                                           'ACTIVE after %d s'
                                           % self.timeout)
            for server in self.conn.compute.servers(details=True):
                boot = by_id.get(server.id)
                if boot is None or 'active' in boot:
                    continue
                if server.status == 'ERROR':
                    raise RuntimeError('server %s went to ERROR: %s'
                                       % (server.id, server.fault))
                if server.status == 'ACTIVE':
                    boot['active'] = time.perf_counter() - boot['t0']
            time.sleep(self.interval)
        wall = max(b['t0'] + b['active'] for b in boots) - start
        for boot in boots:
            boot.pop('t0')
        return wall, boots

    def attachment_of(self, volume_id):
        """The id of the volume's (one) attachment."""
        volume = self.conn.block_storage.get_volume(volume_id)
        for attachment in volume.attachments or ():
            return attachment.get('attachment_id')
        return None

    def delete_servers(self, server_ids):
        """Delete the servers, wait until they are gone and their volumes
        available again."""
        for server_id in server_ids:
            self.conn.compute.delete_server(server_id)
        for server_id in server_ids:
            aio_process.wait_for(lambda: self._gone(server_id),
                                 self.interval, self.timeout,
                                 'delete of %s' % server_id)
            self.servers.discard(server_id)

    def wait_available(self, volume_ids):
        for volume_id in volume_ids:
            aio_process.wait_for(
                lambda: self._volume_status(volume_id, 'available'),
                self.interval, self.timeout, 'release of %s' % volume_id)
