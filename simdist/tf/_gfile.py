"""`tf.io.gfile` on this machine's filesystem: TF 2.21's tensorflow/python/lib/io/file_io.py
(GFile is its FileIO) with the local filesystem's C++ answers (tensorflow/tsl/platform/default/
posix_file_system.cc, file_system.cc), their error classes and texts as observed on TF 2.21
(clause io.tensor-codec). A simulated job has only this machine's disk: paths with a scheme other than
file:// are not reached (get_registered_schemes still lists TF's: '', file, gs, ram).

Differences kept on purpose: listdir (and so walk) lists a directory sorted, where TF gives the
order of readdir (the filesystem's), so that simdist's results do not depend on the disk.
"""

from __future__ import annotations

import errno as _errno
import glob as _globmod
import os as _os
import posixpath as _posixpath
import shutil as _shutil
import stat as _stat
from typing import Any, Iterator

from simdist.runtime import errors as _errors

__all__ = ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join", "listdir", "makedirs",
           "mkdir", "remove", "rename", "rmtree", "stat", "walk"]


def _str(path: Any) -> str:
    """compat.path_to_str then as_str_any: a path-like's fspath, bytes decoded as UTF-8."""
    p = _os.fspath(path) if hasattr(path, "__fspath__") else path
    return p.decode("utf-8") if isinstance(p, bytes) else str(p)


def _local(path: Any) -> str:
    """The local path of a file:// URI (TF's local filesystem strips the scheme)."""
    p = _str(path)
    return p[len("file://"):] if p.startswith("file://") else p


def _os_error(path: str, e: OSError) -> Exception:
    """IOError(errno) as TF's posix filesystem reports it: "<path>; <strerror>" with the class of
    errors.cc's ErrnoToCode."""
    text = f"{path}; {_os.strerror(e.errno or 0)}"
    cls = {_errno.ENOENT: _errors.NotFoundError, _errno.EEXIST: _errors.AlreadyExistsError,
           _errno.ENOTDIR: _errors.FailedPreconditionError, _errno.EISDIR: _errors.FailedPreconditionError,
           _errno.ENOTEMPTY: _errors.FailedPreconditionError, _errno.EACCES: _errors.PermissionDeniedError,
           _errno.EPERM: _errors.PermissionDeniedError}.get(e.errno or 0, _errors.UnknownError)
    return cls(None, None, text)


class FileStatistics:
    """TF's FileStatistics: length (bytes; a directory's st_size), mtime_nsec (whole seconds in
    nanoseconds, as the posix filesystem fills it from st_mtime), is_directory."""

    __slots__ = ("length", "mtime_nsec", "is_directory")

    def __init__(self, length: int, mtime_nsec: int, is_directory: bool) -> None:
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory


def stat(path: Any) -> FileStatistics:
    """`tf.io.gfile.stat`."""
    p = _local(path)
    try:
        s = _os.stat(p)
    except OSError as e:
        raise _os_error(_str(path), e) from None
    return FileStatistics(int(s.st_size), int(s.st_mtime) * 1_000_000_000, _stat.S_ISDIR(s.st_mode))


def exists(path: Any) -> bool:
    """`tf.io.gfile.exists`: whether a file or directory is there."""
    return _os.path.exists(_local(path))


def isdir(path: Any) -> bool:
    """`tf.io.gfile.isdir`: False for a missing path too (its errors are swallowed, as TF's)."""
    return _os.path.isdir(_local(path))


def listdir(path: Any) -> list[str]:
    """`tf.io.gfile.listdir`: the names in a directory (sorted: see the module docstring);
    NotFoundError "Could not find directory <path>" when it is not one."""
    if not isdir(path):
        raise _errors.NotFoundError(None, None, f"Could not find directory {path}")
    return sorted(_os.listdir(_local(path)))


def mkdir(path: Any) -> None:
    """`tf.io.gfile.mkdir`: one directory; an existing one is fine (TF 2.21's CreateDir), a missing
    parent NotFoundError, a file on the way FailedPreconditionError."""
    p = _local(path)
    try:
        _os.mkdir(p)
    except FileExistsError:
        return
    except OSError as e:
        raise _os_error(_str(path), e) from None


def makedirs(path: Any) -> None:
    """`tf.io.gfile.makedirs`: the directory and its missing parents; an existing file there is
    FailedPreconditionError "<path> is not a directory"."""
    p = _local(path)
    if _os.path.exists(p) and not _os.path.isdir(p):
        raise _errors.FailedPreconditionError(None, None, f"{_str(path)} is not a directory")
    try:
        _os.makedirs(p, exist_ok=True)
    except OSError as e:
        raise _os_error(_str(path), e) from None


def remove(path: Any) -> None:
    """`tf.io.gfile.remove`: one file; a directory is FailedPreconditionError "<path>; Is a directory"."""
    p = _local(path)
    if _os.path.isdir(p):
        raise _errors.FailedPreconditionError(None, None, f"{_str(path)}; Is a directory")
    try:
        _os.remove(p)
    except OSError as e:
        raise _os_error(_str(path), e) from None


def rmtree(path: Any) -> None:
    """`tf.io.gfile.rmtree`: a directory and everything under it (a file alone too); a missing path
    is NotFoundError "<path> not found"."""
    p = _local(path)
    if not _os.path.exists(p):
        raise _errors.NotFoundError(None, None, f"{_str(path)} not found")
    if _os.path.isdir(p):
        _shutil.rmtree(p)
    else:
        _os.remove(p)


def glob(pattern: Any) -> list[str]:
    """`tf.io.gfile.glob`: the paths matching a pattern (or each of an iterable of patterns)."""
    pats = [pattern] if isinstance(pattern, (str, bytes)) else list(pattern)
    return [m for p in pats for m in sorted(_globmod.glob(_str(p)))]


def _exists_first(dst: Any, overwrite: bool) -> None:
    if not overwrite and _os.path.exists(_local(dst)):
        raise _errors.AlreadyExistsError(None, None, "file already exists")


def copy(src: Any, dst: Any, overwrite: bool = False) -> None:
    """`tf.io.gfile.copy`: an existing dst without overwrite is AlreadyExistsError "file already
    exists" (checked first, a directory too), a missing src NotFoundError."""
    _exists_first(dst, overwrite)
    s, d = _local(src), _local(dst)
    try:
        with open(s, "rb") as f:
            data = f.read()
    except OSError as e:
        raise _os_error(_str(src), e) from None
    try:
        with open(d, "wb") as f:
            f.write(data)
    except OSError as e:
        raise _os_error(_str(dst), e) from None


def rename(src: Any, dst: Any, overwrite: bool = False) -> None:
    """`tf.io.gfile.rename`: a file or directory moved (the posix filesystem's rename); an existing
    dst without overwrite is AlreadyExistsError "file already exists", a missing src NotFoundError."""
    _exists_first(dst, overwrite)
    try:
        _os.rename(_local(src), _local(dst))
    except OSError as e:
        raise _os_error(_str(src), e) from None


def join(path: Any, *paths: Any) -> str:
    """`tf.io.gfile.join`: os.path.join, or posixpath.join (file_io's urljoin) for a path with a scheme."""
    if "://" in _str(path)[1:]:
        return _posixpath.join(path, *paths)
    return _os.path.join(path, *paths)


def walk(top: Any, topdown: bool = True, onerror: Any = None) -> Iterator[tuple[str, list[str], list[str]]]:
    """`tf.io.gfile.walk`: (dirname, subdirectories, files) of each directory under top, parents first
    (or last with topdown=False); a missing top yields nothing (or calls onerror with the NotFoundError)."""
    top = _str(top)
    try:
        listing = listdir(top)
    except _errors.NotFoundError as err:
        if onerror:
            onerror(err)
        else:
            return
    files, subdirs = [], []
    for item in listing:
        (subdirs if isdir(_full(top, item)) else files).append(item)
    here = (top, subdirs, files)
    if topdown:
        yield here
    for sub in subdirs:
        yield from walk(_full(top, sub), topdown, onerror=onerror)
    if not topdown:
        yield here


def _full(parent: str, item: str) -> str:
    if item[0] == _os.sep:
        return "".join([join(parent, ""), item])
    return join(parent, item)


def get_registered_schemes() -> list[str]:
    """`tf.io.gfile.get_registered_schemes`: the schemes of TF 2.21's CPU build ('' the local
    filesystem, file, gs, ram; observed), in the order it lists them."""
    return list(_SCHEMES)


_SCHEMES = ("", "file", "gs", "ram")


class GFile:
    """`tf.io.gfile.GFile` (file_io.FileIO): a file opened lazily; modes r, w, a, r+, w+, a+ (with b for
    bytes). Reading text decodes UTF-8, writing takes str or bytes; a missing file is NotFoundError at
    the first read, a write in a read mode PermissionDeniedError "File isn't open for writing"."""

    def __init__(self, name: Any, mode: str = "r") -> None:
        self.__name = name
        self.__mode = mode
        self.__encoding = "utf-8"
        self._read_buf: Any = None
        self._writable_file: Any = None
        self._binary_mode = "b" in mode
        mode = mode.replace("b", "")
        if mode not in ("r", "w", "a", "r+", "w+", "a+"):
            raise _errors.InvalidArgumentError(None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._read_check_passed = mode in ("r", "r+", "a+", "w+")
        self._write_check_passed = mode in ("a", "w", "r+", "a+", "w+")

    @property
    def name(self) -> Any:
        return self.__name

    @property
    def mode(self) -> str:
        return self.__mode

    def _preread_check(self) -> None:
        if not self._read_buf:
            if not self._read_check_passed:
                raise _errors.PermissionDeniedError(None, None, "File isn't open for reading")
            try:
                self._read_buf = open(_local(self.__name), "rb")   # noqa: SIM115 - closed by close()
            except OSError as e:
                raise _os_error(_str(self.__name), e) from None

    def _prewrite_check(self) -> None:
        if not self._writable_file:
            if not self._write_check_passed:
                raise _errors.PermissionDeniedError(None, None, "File isn't open for writing")
            m = self.__mode.replace("b", "")
            try:   # (TF's WritableFile: "a" modes append, the others truncate)
                self._writable_file = open(_local(self.__name), "ab" if "a" in m else "wb")   # noqa: SIM115
            except OSError as e:
                raise _os_error(_str(self.__name), e) from None

    def _prepare_value(self, val: bytes) -> Any:
        return val if self._binary_mode else val.decode(self.__encoding)

    def size(self) -> int:
        return stat(self.__name).length

    def write(self, file_content: Any) -> None:
        self._prewrite_check()
        self._writable_file.write(file_content.encode(self.__encoding) if isinstance(file_content, str)
                                  else bytes(file_content))

    def read(self, n: int = -1) -> Any:
        self._preread_check()
        length = self.size() - self.tell() if n == -1 else n
        return self._prepare_value(self._read_buf.read(max(length, 0)))

    def seek(self, offset: Any = None, whence: int = 0, position: Any = None) -> None:
        self._preread_check()
        if offset is None and position is None:
            raise TypeError("seek(): offset argument required")
        if offset is not None and position is not None:
            raise TypeError("seek(): offset and position may not be set simultaneously.")
        if position is not None:
            offset = position
        if whence == 0:
            pass
        elif whence == 1:
            offset += self.tell()
        elif whence == 2:
            offset += self.size()
        else:
            raise _errors.InvalidArgumentError(None, None, f"Invalid whence argument: {whence}. Valid values are 0, "
                                                           "1, or 2.")
        self._read_buf.seek(offset)

    def readline(self) -> Any:
        self._preread_check()
        return self._prepare_value(self._read_buf.readline())

    def readlines(self) -> list:
        self._preread_check()
        lines = []
        while True:
            s = self.readline()
            if not s:
                break
            lines.append(s)
        return lines

    def tell(self) -> int:
        if self._read_check_passed:
            self._preread_check()
            return self._read_buf.tell()
        self._prewrite_check()
        return self._writable_file.tell()

    def __enter__(self) -> "GFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __iter__(self) -> "GFile":
        return self

    def __next__(self) -> Any:
        retval = self.readline()
        if not retval:
            raise StopIteration()
        return retval

    def next(self) -> Any:
        return self.__next__()

    def flush(self) -> None:
        if self._writable_file:
            self._writable_file.flush()

    def close(self) -> None:
        if self._read_buf:
            self._read_buf.close()
        self._read_buf = None
        if self._writable_file:
            self._writable_file.close()
            self._writable_file = None

    def seekable(self) -> bool:
        return True
