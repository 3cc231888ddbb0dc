"""The oslo.db enginefacades of the tether databases, tuned for SQLite."""

import contextlib
import fcntl
import functools
import os
import threading

from oslo_db.sqlalchemy import enginefacade
import sqlalchemy

from tether import conf as t_conf

CONF = t_conf.CONF

# How long a SQLite connection waits for a lock held by another connection.
SQLITE_BUSY_TIMEOUT_MS = 60000
# Pooled SQLite connections per engine (threads beyond it wait, see below).
SQLITE_POOL_SIZE = 8


def _pool_sqlite_connections(engine):
    """Keep SQLite connections open between transactions.

    oslo.db gives file databases a NullPool: every transaction would open a
    connection, run the PRAGMAs below, and on close checkpoint the WAL,
    which costs more than the queries of a typical request. The pool is
    rebuilt with the same creator and the listeners already attached.
    """
    old = engine.pool
    engine.pool = sqlalchemy.pool.QueuePool(
        old._creator, pool_size=SQLITE_POOL_SIZE, max_overflow=-1,
        recycle=old._recycle, echo=old.echo,
        logging_name=old._orig_logging_name,
        reset_on_return=old._reset_on_return, pre_ping=False,
        _dispatch=old.dispatch, dialect=old._dialect)
    old.dispose()


def _sqlite_tuning(engine, immediate):
    """Make one SQLite engine safe for many threads and processes.

    Every connection uses WAL (readers never block the writer) and waits for
    locks instead of failing at once. On the writer engine a transaction
    starts with BEGIN IMMEDIATE: it takes the write lock up front, so two
    writers queue on the busy timeout instead of deadlocking when both try to
    upgrade a read lock ("database is locked").
    """

    _pool_sqlite_connections(engine)

    @sqlalchemy.event.listens_for(engine, 'connect')
    def _on_connect(dbapi_con, con_record):
        dbapi_con.execute('PRAGMA busy_timeout = %d' % SQLITE_BUSY_TIMEOUT_MS)
        dbapi_con.execute('PRAGMA journal_mode = WAL')
        dbapi_con.execute('PRAGMA synchronous = NORMAL')
        dbapi_con.execute('PRAGMA foreign_keys = ON')

    # oslo.db emits a plain (deferred) BEGIN from its own listener, and
    # listeners cannot be reordered (``insert=True`` is not honoured for
    # engine events), so take its place on this engine.
    for fn in list(engine.dispatch.begin):
        if getattr(fn, '__name__', '') == '_sqlite_emit_begin':
            sqlalchemy.event.remove(engine, 'begin', fn)

    if not immediate:
        @sqlalchemy.event.listens_for(engine, 'begin')
        def _begin_deferred(conn):
            # The reader's BEGIN, straight on the DBAPI connection: through
            # SQLAlchemy (a statement with its execution context, events
            # and result) it cost as much CPU as a show's SELECT. A
            # deferred BEGIN takes no lock: it cannot wait or fail on one.
            if 'in_transaction' not in conn.info:
                conn.connection.dbapi_connection.execute('BEGIN')
                # Read by oslo.db's commit/rollback listeners.
                conn.info['in_transaction'] = True
    else:
        @sqlalchemy.event.listens_for(engine, 'begin')
        def _begin_immediate(conn):
            if 'in_transaction' not in conn.info:
                conn.exec_driver_sql('BEGIN IMMEDIATE')
                # Read by oslo.db's commit/rollback listeners.
                conn.info['in_transaction'] = True


class WriterTurn:
    """One writer at a time on a SQLite file, across threads and processes.

    Threads of this process queue on a re-entrant lock (writer
    transactions nest: an inner one joins the outer). The thread that
    holds it then takes an exclusive ``flock`` on a file beside the
    database, which queues the writers of other processes (tether-aio's
    API workers) in the kernel: the one waiting wakes as the lock is let
    go. SQLite's own busy handler, which the lock leaves as a safety net
    for other programs, polls in sleeps of up to 100 ms; oslo.concurrency's
    inter-process locks (fasteners) poll too.
    """

    def __init__(self, database):
        self._lock = threading.RLock()
        self._depth = 0
        self._fd = None
        if database and database != ':memory:':
            self._fd = os.open(database + '.writer-lock',
                               os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)

    def __enter__(self):
        self._lock.acquire()
        if self._depth == 0 and self._fd is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX)
            except BaseException:
                self._lock.release()
                raise
        self._depth += 1
        return self

    def __exit__(self, *exc):
        self._depth -= 1
        if self._depth == 0 and self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
        self._lock.release()

    def close(self):
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _configure(connection):
    """An enginefacade for ``connection`` and its SQLite writer lock."""
    ctx = enginefacade.transaction_context()
    kwargs = {'connection': connection}
    is_sqlite = connection.startswith('sqlite')
    if is_sqlite:
        # A separate reader engine on the same file: only writers take the
        # write lock, readers run concurrently against the WAL.
        kwargs['slave_connection'] = connection
        kwargs['synchronous_reader'] = False
    # thread_checkin adds a sleep(0) per statement for eventlet; tether
    # runs on native threads.
    ctx.configure(sqlite_fk=False, thread_checkin=False, **kwargs)
    if is_sqlite:
        writer = ctx.writer.get_engine()
        reader = ctx.reader.get_engine()
        _sqlite_tuning(writer, immediate=True)
        if reader is not writer:
            _sqlite_tuning(reader, immediate=False)
    # SQLite takes one writer at a time: writers queue on a WriterTurn
    # rather than in SQLite's busy handler.
    if not is_sqlite:
        return ctx, None
    return ctx, WriterTurn(sqlalchemy.engine.make_url(connection).database)


class Database:
    """One service's database: the ``connection`` of option group ``group``.

    The volume service uses ``[database]``, the compute service
    ``[compute_database]``; in tether-aio both live in one process, each
    with its own engines.
    """

    def __init__(self, group):
        self.group = group
        self._lock = threading.Lock()
        self._context_manager = None
        self._writer_lock = None

    def get_context_manager(self):
        if self._context_manager is None:
            with self._lock:
                if self._context_manager is None:
                    self._context_manager, self._writer_lock = _configure(
                        CONF[self.group].connection)
        return self._context_manager

    def get_engine(self):
        return self.get_context_manager().writer.get_engine()

    def reset(self):
        """Drop the engines (tests, and tether-aio when the config
        changes)."""
        with self._lock:
            if self._context_manager is not None:
                self._context_manager.dispose_pool()
            if self._writer_lock is not None:
                self._writer_lock.close()
            self._context_manager = None
            self._writer_lock = None

    def _writer_turn(self):
        lock = self._writer_lock
        return lock if lock is not None else contextlib.nullcontext()

    def reader(self, fn):
        """Run ``fn(context, ...)`` in a read transaction
        (context.session)."""
        @functools.wraps(fn)
        def wrapper(context, *args, **kwargs):
            with self.get_context_manager().reader.using(context):
                return fn(context, *args, **kwargs)
        return wrapper

    def reader_connection(self, fn):
        """Run ``fn(context, ...)`` in a read transaction on a Core
        connection (context.connection), without an ORM session: for
        reads of plain statements (a show), whose session would cost
        more CPU than the SELECTs. Inside a transaction already open it
        uses that transaction's connection."""
        @functools.wraps(fn)
        def wrapper(context, *args, **kwargs):
            with self.get_context_manager().reader.connection.using(
                    context):
                return fn(context, *args, **kwargs)
        return wrapper

    def writer(self, fn):
        """Run ``fn(context, ...)`` in a write transaction
        (context.session)."""
        @functools.wraps(fn)
        def wrapper(context, *args, **kwargs):
            manager = self.get_context_manager()
            with self._writer_turn(), manager.writer.using(context):
                return fn(context, *args, **kwargs)
        return wrapper

    def reading(self, context):
        """A read transaction for several reads (``with db.reading(ctx)``)."""
        return self.get_context_manager().reader.using(context)

    @contextlib.contextmanager
    def writing(self, context):
        """A write transaction for several statements."""
        manager = self.get_context_manager()
        with self._writer_turn(), manager.writer.using(context):
            yield


def core_connection(context):
    """The connection of the ORM transaction ``context.session``, for
    Core statements that need no session (an UPDATE through the ORM's
    bulk machinery cost three times one on the connection), once the
    session's pending changes are flushed: as the session's own execute
    would autoflush them, so a statement sees every row the transaction
    added."""
    session = context.session
    session.flush()
    return session.connection()


VOLUME = Database('database')
COMPUTE = Database('compute_database')
