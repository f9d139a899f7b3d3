//! Ubuntu 23.10+'s restriction of unprivileged user namespaces: with
//! `kernel.apparmor_restrict_unprivileged_userns = 1`, a program without an
//! AppArmor profile granting `userns` gets a user namespace with no
//! capabilities in it, so the non-root sandbox cannot make its mount and
//! network namespaces. Detected so the note can say why and what to do.

/// Whether the sysctl is set (false where the file does not exist).
pub(super) fn restricts_unprivileged_userns() -> bool {
    fs_err::read_to_string("/proc/sys/kernel/apparmor_restrict_unprivileged_userns")
        .is_ok_and(|text| text.trim() == "1")
}
