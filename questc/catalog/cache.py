"""The built-in catalog's parsed documents, cached between runs (the cache apart from the loader).

Any: the documents are YAML data (mappings, lists, strings, numbers) as PyYAML gives them.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["cached_documents", "known_valid"]

# Bump when what the cache holds changes meaning.
_CACHE_FORMAT = b"questc built-in catalog documents 2"
# marshal's format 4 (Python 3.4 on) is written, so every Python questc runs on reads it.
_MARSHAL_VERSION = 4
# How many content packs are remembered as matching the schema (the newest).
VALID_PACKS_KEPT = 64
# How many versions of the documents are kept (the newest): installs of questc with other card
# files on the same account keep theirs instead of rewriting each other's on every run.
CATALOGS_KEPT = 8


def cached_documents(files: list[Path], parse: Callable[[Path], Any]) -> list[Any]:
    """The parsed YAML documents of the built-in catalog files (`parse` reads one), in order.

    Parsing them needs PyYAML (about 30 ms to import and parse on every run), so the
    documents are cached in cache_dir() with `marshal`, which is built into the
    interpreter (json takes about 1.2 ms to import; here it is needed only to check a
    pack against the schema), keyed by a fingerprint of the files' names, lengths and
    bytes (CRC-32 and Adler-32: zlib costs next to nothing to import, hashlib about
    2.5 ms): an edited card file is a new key. The key is a staleness check, not a
    defence against tampering; the cache is questc's own folder. The cached bytes
    carry a CRC-32 of themselves, checked before they are unmarshalled, so a truncated
    or corrupt file is never decoded: like a missing, unreadable or stale one it is
    ignored and rewritten. Documents marshal cannot hold or would not give back equal
    (a YAML date, a NaN) are not cached.
    """
    import marshal
    import zlib

    from questc.paths import cache_dir, write_cache

    crc, adler = zlib.crc32(_CACHE_FORMAT), zlib.adler32(_CACHE_FORMAT)
    raws = []
    for path in files:
        try:
            raw = path.read_bytes()
        except OSError:
            raw = None  # read_yaml reports it
        raws.append(raw)
        for chunk in (b"\0%s\0%d\0" % (path.name.encode(), -1 if raw is None else len(raw)), raw or b""):
            crc, adler = zlib.crc32(chunk, crc), zlib.adler32(chunk, adler)
    name = f"catalog-{crc:08x}{adler:08x}.marshal"
    if all(raw is not None for raw in raws):
        try:
            data = (cache_dir() / name).read_bytes()
            payload = data[4:]
            if len(data) > 4 and int.from_bytes(data[:4], "big") == zlib.crc32(payload):
                documents = marshal.loads(payload)
                if isinstance(documents, list) and len(documents) == len(files):
                    return documents
        except (OSError, ValueError, EOFError, TypeError):
            pass
    documents = [parse(path) for path in files]
    try:
        payload = marshal.dumps(documents, _MARSHAL_VERSION)
    except ValueError:  # a value marshal cannot hold (say a YAML date)
        return documents
    if marshal.loads(payload) == documents:
        write_cache(name, zlib.crc32(payload).to_bytes(4, "big") + payload, family="catalog-*", keep=CATALOGS_KEPT)
    return documents


def known_valid(document: Any, check: Callable[[Any], list]) -> list:
    """`check(document)` (the catalog schema's problems with a pack), or [] at once when this very
    document passed the same schema before.

    Checking a pack against the schema imports jsonschema and runs it: a quarter of a second
    on every run with a pack, the same answer each time for the same pack. A pack that
    passed is remembered by a SHA-256 of its parsed document (marshal's bytes) and the schema's
    bytes: a pack is untrusted input, and a checksum (as the documents' cache keys its files)
    can be matched on purpose, by a pack made to pass for one that passed. A pack with problems
    is checked every time, and so is a document marshal cannot hold.
    """
    import hashlib
    import marshal

    from questc.paths import cache_dir, data_dir, write_cache

    try:
        chunks = [
            b"questc pack valid 1\0",
            (data_dir("schemas") / "catalog.schema.json").read_bytes(),
            marshal.dumps(document, _MARSHAL_VERSION),
        ]
    except (OSError, ValueError):
        return check(document)
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(len(chunk).to_bytes(8, "big") + chunk)
    name = f"pack-valid-{digest.hexdigest()}"
    if (cache_dir() / name).is_file():
        return []
    found = check(document)
    if not found:
        write_cache(name, b"", family="pack-valid-*", keep=VALID_PACKS_KEPT)
    return found
