"""The integration deployment as volume_api.py measures it (--deployment):
RabbitMQ, PostgreSQL, Keystone and tether's daemons
(tools/integration/deployment.py), a Keystone project per bench project,
and what each workload cost PostgreSQL."""

import os
import sys
import time

from volume_load import Project


class DeploymentServer:
    """The integration deployment (tools/integration/deployment.py), and a
    Keystone project (with a member user and its token) per bench project.
    """

    def __init__(self, api_workers):
        tools = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        sys.path.insert(0, tools)
        from integration import deployment
        # The volume API needs no Manila: none is started. Its answers
        # are not checked against their declared responses, as an
        # operator's are not ([api] response_validation's default): the
        # integration tests' check cost a list page of 100 volumes
        # 12 ms of the API worker's CPU, four times the rest of it.
        self.deployment = deployment.Deployment(
            api_workers=api_workers, manila=False,
            response_validation='ignore')
        self.deployment.start()
        self.url = self.deployment.volume_api.url_root
        self.admin = self.deployment.connection('admin')

    def project(self, name, role='member'):
        project_id = self.deployment.add_project(name, role=role)
        token = self.deployment.connection(name).auth_token
        # The create workload makes thousands of volumes in one project.
        resp = self.admin.block_storage.put(
            '/os-quota-sets/%s' % project_id,
            json={'quota_set': {'volumes': -1, 'gigabytes': -1}})
        if resp.status_code != 200:
            raise SystemExit('cannot set the quotas of %s: %s'
                             % (name, resp.text))
        return Project(name, project_id, token)

    def database_counters(self):
        """(transactions, sessions) PostgreSQL counted so far in the volume
        database, a second after the last request (its statistics are
        flushed at most once a second)."""
        time.sleep(1.1)
        row = self.deployment.db.psql(
            'SELECT pg_stat_clear_snapshot(); SELECT xact_commit + '
            "xact_rollback, sessions FROM pg_stat_database WHERE datname = "
            "'tether_volume'").split()[-1]
        transactions, sessions = row.split('|')
        return int(transactions), int(sessions)

    def pids(self):
        """The processes whose memory is reported: name -> PID."""
        api = self.deployment.volume_api
        pids = {'tether-volume-api master': api.process.pid}
        for i, pid in enumerate(api.workers()):
            pids['tether-volume-api worker %d' % (i + 1)] = pid
        pids['tether-volume'] = self.deployment.volume_manager.process.pid
        return pids

    def stop(self):
        self.deployment.stop()

    def cleanup(self):
        pass
