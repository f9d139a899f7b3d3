#!/usr/bin/env bash
# Builds the judge's container image from Debian's packages alone (no
# registry but Debian's archive is needed): debootstrap a minimal Debian,
# add the compilers the problems need and the judge binary, and import it
# into podman (or Docker) as an image whose entry point is `judge`.
#
#   deploy/container/build.sh [--judge PATH] [--tag NAME] [--rootfs DIR]
#                             [--packages "g++ python3 ..."] [--suite bookworm]
#                             [--mirror URL] [--save FILE] [--engine podman|docker]
#
# --rootfs keeps the debootstrapped tree between builds (only the judge
# binary is replaced when the suite and packages are unchanged); --save also
# writes the image as an OCI archive (`podman load -i FILE`, `docker load`).
# Run it as root (debootstrap needs it). docs/container.md says how to run
# the image unprivileged.
set -euo pipefail

judge=target/release/judge
tag=localhost/judge:latest
rootfs=
packages="g++ python3"
suite=bookworm
mirror=http://deb.debian.org/debian
save=
engine=podman
while [ $# -gt 0 ]; do
  case "$1" in
    --judge) judge=$2 ;;
    --tag) tag=$2 ;;
    --rootfs) rootfs=$2 ;;
    --packages) packages=$2 ;;
    --suite) suite=$2 ;;
    --mirror) mirror=$2 ;;
    --save) save=$2 ;;
    --engine) engine=$2 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "build.sh: unknown argument \`$1\` (see --help)" >&2
      exit 2
      ;;
  esac
  shift 2 || { echo "build.sh: \`$1\` needs a value" >&2; exit 2; }
done

[ "$(id -u)" -eq 0 ] || { echo "build.sh: run as root (debootstrap needs it)" >&2; exit 2; }
[ -x "$judge" ] || { echo "build.sh: no judge binary at \`$judge\` (cargo build --release --locked, or --judge PATH)" >&2; exit 2; }
for tool in debootstrap "$engine"; do
  command -v "$tool" >/dev/null || { echo "build.sh: \`$tool\` is not installed (apt-get install -y $tool)" >&2; exit 2; }
done

made_here=
if [ -z "$rootfs" ]; then
  rootfs=$(mktemp -d)
  made_here=1
fi
# debootstrap mounts /proc (and more) inside the tree while packages are
# configured, and can leave a mount behind (seen on Debian 12 with a busy
# /proc): nothing mounted there belongs in the image, and `rm -rf` must not
# walk into it.
unmount_inside() {
  findmnt -rn -o TARGET | awk -v root="$(realpath -m "$rootfs")/" 'index($0, root) == 1' |
    sort -r | while read -r target; do umount -l "$target"; done
}
cleanup() {
  unmount_inside
  [ -z "$made_here" ] || rm -rf --one-file-system "$rootfs"
}
trap cleanup EXIT

# The tree is reused only when it was made whole for the same suite and
# packages; anything else (an interrupted debootstrap) is made again.
stamp="$suite $packages"
unmount_inside
if [ "$(cat "$rootfs/.judge-rootfs" 2>/dev/null)" != "$stamp" ]; then
  rm -rf --one-file-system "$rootfs"
  mkdir -p "$rootfs"
  # shellcheck disable=SC2086 # the package list is words
  debootstrap --variant=minbase --include="$(echo $packages | tr ' ' ',')" \
    "$suite" "$rootfs" "$mirror"
  unmount_inside
  # Nothing of the build host's is kept in the image.
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
  echo "$stamp" > "$rootfs/.judge-rootfs"
fi
install -m 755 "$judge" "$rootfs/usr/local/bin/judge"
mkdir -p "$rootfs/work"

# The tree, without the stamp, becomes the image.
tar --numeric-owner --one-file-system --exclude=./.judge-rootfs -C "$rootfs" -c . |
  "$engine" import \
    --change 'ENTRYPOINT ["/usr/local/bin/judge"]' \
    --change 'CMD ["grade"]' \
    --change 'WORKDIR /work' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    - "$tag" >/dev/null
echo "built $tag ($("$engine" image inspect --format '{{.Id}}' "$tag" | cut -c1-19))"
if [ -n "$save" ]; then
  rm -f "$save"
  if [ "$engine" = podman ]; then
    podman save --format oci-archive -o "$save" "$tag"
  else
    docker save -o "$save" "$tag"
  fi
  echo "saved $save"
fi
