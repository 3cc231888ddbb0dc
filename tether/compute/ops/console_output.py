"""What the compute manager does for a server's console output (a read):
the last lines of what the driver keeps of the guest's console."""


def last_lines(data, count):
    """The last ``count`` lines of ``data`` (bytes); all with None.

    Counted as Nova counts them (and Tempest checks): the pieces between
    newlines, so the empty piece after a final newline is one of them.
    """
    if count is None:
        return data
    if count <= 0:
        return b''
    return b'\n'.join(data.rsplit(b'\n', count)[-count:])


def get(context, host, instance, tail_length):
    """The last ``tail_length`` lines (None: all) of the bytes the driver
    keeps of the guest's console, as text (invalid UTF-8 replaced)."""
    data = host.driver.get_console_output(instance.uuid)
    return last_lines(data, tail_length).decode('utf-8', 'replace')
