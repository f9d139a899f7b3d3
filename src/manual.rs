//! The man page and the shell completions, rendered from the command
//! line's clap definitions (`judge man`, `judge completions`).

/// The man page (roff) of `command` and, after it, a page of each of its
/// visible subcommands (`judge-run`, ...), so the one page covers every
/// command.
pub(crate) fn man_page(command: clap::Command) -> std::io::Result<String> {
    let mut page = Vec::new();
    clap_mangen::Man::new(command.clone()).render(&mut page)?;
    let name = command.get_name().to_owned();
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        let sub = sub
            .clone()
            .display_name(format!("{name}-{}", sub.get_name()))
            .bin_name(format!("{name} {}", sub.get_name()));
        clap_mangen::Man::new(sub).render(&mut page)?;
    }
    Ok(String::from_utf8_lossy(&page).into_owned())
}

/// The completion script of `command` for `shell`.
pub(crate) fn completions(shell: clap_complete::Shell, mut command: clap::Command) -> String {
    let mut script = Vec::new();
    let name = command.get_name().to_owned();
    clap_complete::generate(shell, &mut command, name, &mut script);
    String::from_utf8_lossy(&script).into_owned()
}
