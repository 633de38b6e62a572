# CI: a bare Debian 12 as a new operator has it (debootstrap minbase with git, make and
# python3 only), sourced by .ci/run.
#
#   bare_root_template        the cached root, built once per recipe on this machine
#   bare_root_enter DIR       a throw-away root over the template (overlayfs), with /proc,
#                             /sys, /dev, the apt/pip caches and this machine's apt and pip
#                             settings and CA certificates; bare_root_leave DIR undoes it
#   in_root DIR COMMAND...    runs COMMAND as root in it, with a plain environment
#
# Cache: /var/cache/muster-ci (CI_CACHE): roots/<recipe>/ (the template), apt/ (downloaded
# .deb files), pip/ (pip's cache). The template is rebuilt when the recipe below changes.

CI_CACHE=${CI_CACHE:-/var/cache/muster-ci}
CI_ROOT_ENV=()  # VAR=value words added to the root's environment by in_root
BARE_SUITE=bookworm
BARE_PACKAGES=git,make,python3
BARE_RECIPE="debootstrap --variant=minbase --include=$BARE_PACKAGES $BARE_SUITE v1"

# The Debian mirror this machine's apt uses (deb822 sources or the one-line format).
host_mirror() {
  local uri
  uri=$(grep -hs -m1 -E '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}')
  [ -n "$uri" ] || uri=$(grep -hs -m1 -E '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
    | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; exit}}')
  echo "${uri:-http://deb.debian.org/debian}"
}

bare_root_template() {
  local key dir
  key=$(printf '%s\n%s\n' "$BARE_RECIPE" "$(host_mirror)" | sha256sum | cut -c1-12)
  dir="$CI_CACHE/roots/$BARE_SUITE-$key"
  if [ ! -e "$dir/.complete" ]; then
    command -v debootstrap >/dev/null || { apt-get update -q && apt-get install -y -q debootstrap; } >&2
    rm -rf --one-file-system "$dir.partial"
    mkdir -p "$CI_CACHE/roots" "$CI_CACHE/apt"
    echo "building the bare Debian root ($BARE_RECIPE) from $(host_mirror) into $dir" >&2
    debootstrap --variant=minbase --include="$BARE_PACKAGES" --cache-dir="$CI_CACHE/apt" \
      "$BARE_SUITE" "$dir.partial" "$(host_mirror)" >&2
    rm -rf --one-file-system "$dir"
    mv "$dir.partial" "$dir"
    touch "$dir/.complete"
  fi
  echo "$dir"
}

# Mounted by bare_root_enter, undone in reverse by bare_root_leave.
_bare_mounts() {
  echo proc sys dev dev/pts dev/shm var/cache/apt/archives root/.cache/pip
}

bare_root_enter() {
  local root=$1 template
  template=$(bare_root_template)
  mkdir -p "$root" "$root.upper" "$root.work"
  if ! mount -t overlay overlay -o "lowerdir=$template,upperdir=$root.upper,workdir=$root.work" "$root" 2>/dev/null; then
    echo "(no overlayfs here: copying the template)" >&2
    rmdir "$root.upper" "$root.work"
    cp -a "$template/." "$root/"
  fi
  mkdir -p "$root/var/cache/apt/archives" "$root/root/.cache/pip" "$CI_CACHE/apt/partial" "$CI_CACHE/pip"
  mount -t proc proc "$root/proc"
  mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
  mount --bind /dev "$root/dev"
  mount --bind /dev/pts "$root/dev/pts"
  mount -t tmpfs -o size=1g tmpfs "$root/dev/shm"
  mount --bind "$CI_CACHE/apt" "$root/var/cache/apt/archives"
  mount --bind "$CI_CACHE/pip" "$root/root/.cache/pip"
  # This machine's way to Debian's packages and PyPI: apt sources and network settings, pip's
  # settings (and the local package folders they name), the CA certificates.
  cp -a /etc/apt/sources.list.d/. "$root/etc/apt/sources.list.d/" 2>/dev/null || true
  [ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$root/etc/apt/sources.list"
  grep -ls '^Acquire' /etc/apt/apt.conf.d/* | xargs -r cp -t "$root/etc/apt/apt.conf.d/"
  rm -f "$root"/etc/apt/sources.list.d/*.disabled-by-* 2>/dev/null || true
  # Keep downloaded packages for the next run (the cache is bind-mounted).
  echo 'Binary::apt::APT::Keep-Downloaded-Packages "true"; APT::Keep-Downloaded-Packages "true";' \
    >"$root/etc/apt/apt.conf.d/01muster-ci-keep-debs"
  mkdir -p "$root/etc/ssl/certs" "$root/etc/xdg/pip" "$root/root/.config/pip"
  cp -L /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  # ... and the local ones by themselves: Debian's ca-certificates, once installed, rebuilds the
  # bundle from its own list and these.
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp -a /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
  # pip's settings, and the files and folders they name (constraints, local package folders).
  local conf value path
  for conf in /etc/pip.conf /etc/xdg/pip/pip.conf /root/.config/pip/pip.conf; do
    [ -f "$conf" ] || continue
    cp "$conf" "$root$conf"
    for value in $(sed -n 's/^[^#=[]*=//p' "$conf") ${PIP_FIND_LINKS:-}; do
      path=${value#file://}
      case "$path" in /*) ;; *) continue ;; esac
      path=${path%/}
      [ "${path##*/}" = simple ] && path=${path%/simple}  # an index links to files beside it
      if [ -f "$path" ]; then
        mkdir -p "$root$(dirname "$path")" && cp "$path" "$root$path"
      elif [ -d "$path" ] && ! findmnt -rn "$root$path" >/dev/null; then
        mkdir -p "$root$path" && mount --bind -o ro "$path" "$root$path"
      fi
    done
  done
  cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
  # What Debian's installer writes and debootstrap does not: without it "localhost" resolves to
  # nothing (the tests' live servers listen there).
  [ -s "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' \
    >"$root/etc/hosts"
}

bare_root_leave() {
  local root=$1 mount
  [ -d "$root" ] || return 0
  # Everything mounted below the root, deepest first, then the root itself.
  for mount in $(findmnt -rn -o TARGET | grep -E "^$root(/|$)" | sort -r); do
    umount -l "$mount" 2>/dev/null || true
  done
  if findmnt -rn -o TARGET | grep -qE "^$root(/|$)"; then
    echo "could not unmount everything under $root: left in place" >&2
    return 1
  fi
  rm -rf --one-file-system "$root" "$root.upper" "$root.work" "$root.binds"
}

in_root() {
  local root=$1
  shift
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 TERM=dumb ${CI_ROOT_ENV[@]+"${CI_ROOT_ENV[@]}"} "$@"
}
