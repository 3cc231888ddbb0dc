"""tether-manage: database migrations, service records, upgrade checks."""

import sys

from oslo_config import cfg

from tether.cmd import common
from tether.cmd import status
from tether.compute import exception as compute_exception
from tether import context as t_context
from tether.db.compute import service as db_compute_services
from tether.db import migration
from tether.db.volume import service as db_services
from tether.objects import fields

CONF = cfg.CONF


def _databases(args):
    return (sorted(migration.DATABASES) if args.service_db == 'all'
            else [args.service_db])


def db_sync(args):
    for database in _databases(args):
        migration.db_sync(args.version or 'head', database=database)
        print('The %s database is at revision %s'
              % (database, migration.db_version(database=database)))


def db_version(args):
    for database in _databases(args):
        version = migration.db_version(database=database) or 'None'
        if args.service_db == 'all':
            print('%s: %s' % (database, version))
        else:
            print(version)


def service_list(args):
    ctx = t_context.get_admin_context()
    fmt = '%-16s %-32s %-8s %-9s %-6s %s'
    print(fmt % ('Binary', 'Host', 'Zone', 'Status', 'State', 'Updated At'))
    rows = []
    if args.service_db in ('volume', 'all'):
        rows += [(s, s.is_up(CONF.service_down_time))
                 for s in db_services.get_all(ctx)]
    if args.service_db in ('compute', 'all'):
        rows += [(s, s.is_up(CONF.service_down_time))
                 for s in db_compute_services.get_all(ctx)]
    for s, up in rows:
        print(fmt % (s.binary, s.host, s.availability_zone or '',
                     'disabled' if s.disabled else 'enabled',
                     ':-)' if up else 'XXX',
                     s.heartbeat_at))


def service_remove(args):
    """Delete the record of a service that is gone (as cinder-manage
    service remove): records of gone hosts hold ``[upgrade_levels] ...
    = auto`` at their version."""
    ctx = t_context.get_admin_context()
    binary, host = args.service_binary, args.service_host
    db = (db_compute_services if binary == fields.ServiceBinary.COMPUTE
          else db_services)
    rows = db.get_all(ctx, binary=binary, host=host)
    if not rows:
        print('No %s service on host %s.' % (binary, host))
        return 1
    if rows[0].is_up(CONF.service_down_time):
        print('The %s service on host %s is up (last heartbeat %s): stop '
              'it first.' % (binary, host, rows[0].heartbeat_at))
        return 1
    if db is db_compute_services:
        try:
            db.destroy_unused(ctx, rows[0].id)
        except compute_exception.ComputeServiceInUse as exc:
            print(exc)
            return 1
    else:
        db.destroy(ctx, rows[0].id)
    print('Removed the %s service of host %s.' % (binary, host))
    return 0


def status_upgrade_check(args):
    return status.upgrade_check(json_output=args.json)


def _database_arg(parser, default):
    parser.add_argument(
        '--database', dest='service_db',
        choices=sorted(migration.DATABASES) + ['all'], default=default,
        help='the service database: volume ([database]), compute '
             '([compute_database]) or all (default: %s)' % default)


def _add_commands(subparsers):
    db = subparsers.add_parser('db', help='database migrations')
    db_sub = db.add_subparsers(dest='action')
    sync = db_sub.add_parser('sync', help='upgrade the database schema')
    sync.add_argument('version', nargs='?', default=None)
    _database_arg(sync, 'volume')
    sync.set_defaults(func=db_sync)
    version = db_sub.add_parser('version', help='show the schema revision')
    _database_arg(version, 'volume')
    version.set_defaults(func=db_version)
    service = subparsers.add_parser('service', help='service records')
    service_sub = service.add_subparsers(dest='action')
    lst = service_sub.add_parser('list', help='list services')
    _database_arg(lst, 'all')
    lst.set_defaults(func=service_list)
    remove = service_sub.add_parser(
        'remove', help='delete the record of a service that is down and '
                       'gone (a compute host must have no instance)')
    # Not "host" and "binary": [DEFAULT]host is an option already.
    remove.add_argument('service_binary', metavar='binary',
                        choices=[fields.ServiceBinary.VOLUME,
                                 fields.ServiceBinary.BACKUP,
                                 fields.ServiceBinary.COMPUTE])
    remove.add_argument('service_host', metavar='host',
                        help='its host (host@backend for tether-volume)')
    remove.set_defaults(func=service_remove)
    status_parser = subparsers.add_parser(
        'status', help='is this deployment ready for this code')
    status_sub = status_parser.add_subparsers(dest='action')
    upgrade = status_sub.add_parser(
        'upgrade', help='"upgrade check": databases at head, compute '
                        'service versions, RPC version pins, policy '
                        'file; exit code 0 success, 1 warning, 2 failure')
    upgrade.add_argument('check', choices=['check'])
    upgrade.add_argument('--json', action='store_true',
                         help='print the results as JSON')
    upgrade.set_defaults(func=status_upgrade_check)


def main(argv=None):
    opt = cfg.SubCommandOpt('category', title='Commands',
                            handler=_add_commands)
    common.parse_args(sys.argv[1:] if argv is None else argv,
                      'tether management', cli_opts=[opt])
    func = getattr(CONF.category, 'func', None)
    if func is None:
        print('Usage: tether-manage {db sync|db version|service list|'
              'service remove|status upgrade check}')
        return 2
    return func(CONF.category)
