"""The oslo.db enginefacade for the tether database, tuned for SQLite."""

import threading

import sqlalchemy
from oslo_config import cfg
from oslo_db.sqlalchemy import enginefacade

CONF = cfg.CONF

_LOCK = threading.Lock()
_main_context_manager = None

# How long a SQLite connection waits for a lock held by another connection.
SQLITE_BUSY_TIMEOUT_MS = 60000


def _sqlite_tuning(engine, immediate):
    """Make one SQLite engine safe for many threads and processes.

    Every connection uses WAL (readers never block the writer) and waits for
    locks instead of failing at once. On the writer engine a transaction
    starts with BEGIN IMMEDIATE: it takes the write lock up front, so two
    writers queue on the busy timeout instead of deadlocking when both try to
    upgrade a read lock ("database is locked").
    """

    @sqlalchemy.event.listens_for(engine, 'connect')
    def _on_connect(dbapi_con, con_record):
        dbapi_con.execute('PRAGMA busy_timeout = %d' % SQLITE_BUSY_TIMEOUT_MS)
        dbapi_con.execute('PRAGMA journal_mode = WAL')
        dbapi_con.execute('PRAGMA synchronous = NORMAL')
        dbapi_con.execute('PRAGMA foreign_keys = ON')

    if immediate:
        @sqlalchemy.event.listens_for(engine, 'begin', insert=True)
        def _begin_immediate(conn):
            if 'in_transaction' not in conn.info:
                conn.exec_driver_sql('BEGIN IMMEDIATE')
                # oslo.db's own listener emits BEGIN unless this is set.
                conn.info['in_transaction'] = True


def _configure(connection):
    ctx = enginefacade.transaction_context()
    kwargs = {'connection': connection}
    is_sqlite = connection.startswith('sqlite')
    if is_sqlite:
        # A separate reader engine on the same file: only writers take the
        # write lock, readers run concurrently against the WAL.
        kwargs['slave_connection'] = connection
        kwargs['synchronous_reader'] = False
    ctx.configure(sqlite_fk=False, **kwargs)
    if is_sqlite:
        writer = ctx.writer.get_engine()
        reader = ctx.reader.get_engine()
        _sqlite_tuning(writer, immediate=True)
        if reader is not writer:
            _sqlite_tuning(reader, immediate=False)
    return ctx


def get_context_manager():
    global _main_context_manager
    if _main_context_manager is None:
        with _LOCK:
            if _main_context_manager is None:
                _main_context_manager = _configure(CONF.database.connection)
    return _main_context_manager


def reset():
    """Drop the engines (tests, and tether-aio when the config changes)."""
    global _main_context_manager
    with _LOCK:
        if _main_context_manager is not None:
            _main_context_manager.dispose_pool()
        _main_context_manager = None


def reader(fn):
    """Run ``fn(context, ...)`` in a read transaction (context.session)."""
    def wrapper(context, *args, **kwargs):
        with get_context_manager().reader.using(context):
            return fn(context, *args, **kwargs)
    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def writer(fn):
    """Run ``fn(context, ...)`` in a write transaction (context.session)."""
    def wrapper(context, *args, **kwargs):
        with get_context_manager().writer.using(context):
            return fn(context, *args, **kwargs)
    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def get_engine():
    return get_context_manager().writer.get_engine()
