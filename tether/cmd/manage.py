"""tether-manage: database migrations and service records."""

import sys

from oslo_config import cfg

from tether.cmd import common
from tether import context as t_context
from tether.db import migration
from tether.db import services as db_services

CONF = cfg.CONF


def db_sync(args):
    migration.db_sync(args.version or 'head')
    print('Database is at revision %s' % migration.db_version())


def db_version(args):
    print(migration.db_version() or 'None')


def service_list(args):
    ctx = t_context.get_admin_context()
    fmt = '%-16s %-32s %-8s %-9s %-6s %s'
    print(fmt % ('Binary', 'Host', 'Zone', 'Status', 'State', 'Updated At'))
    for s in db_services.get_all(ctx):
        up = db_services.is_up(s, CONF.service_down_time)
        print(fmt % (s.binary, s.host, s.availability_zone or '',
                     'disabled' if s.disabled else 'enabled',
                     ':-)' if up else 'XXX',
                     s.heartbeat_at))


def _add_commands(subparsers):
    db = subparsers.add_parser('db', help='database migrations')
    db_sub = db.add_subparsers(dest='action')
    sync = db_sub.add_parser('sync', help='upgrade the database schema')
    sync.add_argument('version', nargs='?', default=None)
    sync.set_defaults(func=db_sync)
    version = db_sub.add_parser('version', help='show the schema revision')
    version.set_defaults(func=db_version)
    service = subparsers.add_parser('service', help='service records')
    service_sub = service.add_subparsers(dest='action')
    lst = service_sub.add_parser('list', help='list services')
    lst.set_defaults(func=service_list)


def main(argv=None):
    opt = cfg.SubCommandOpt('category', title='Commands',
                            handler=_add_commands)
    common.parse_args(sys.argv[1:] if argv is None else argv,
                      'tether management', cli_opts=[opt])
    func = getattr(CONF.category, 'func', None)
    if func is None:
        print('Usage: tether-manage {db sync|db version|service list}')
        return 2
    return func(CONF.category)
