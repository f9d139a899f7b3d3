//! rooks through the library API: the reference solver against slow oracles
//! written here, generators against the validator, the checker against the
//! reference output and its mutations, and the input model's round trip.

use judge::problems::rooks::input::{parse_input, print_input, Board, Cell, MAX_SIZE};
use judge::problems::rooks::solve::{max_rooks, max_rooks_backtracking, solve};
use judge::problems::rooks::validate::PROFILES;
use judge::problems::text::Layout;
use judge::problems::{find, test_rng, CheckOptions, CheckOutcome, Problem};
use judge::verdict::Verdict;
use proptest::prelude::*;

#[expect(
    clippy::expect_used,
    reason = "a test helper: a missing registration must fail the test"
)]
fn rooks() -> &'static dyn Problem {
    find("rooks").expect("rooks is registered")
}

/// A board of side in `sizes`, with its own wall density so that open,
/// walled and mixed boards all occur.
fn board_strategy(sizes: std::ops::RangeInclusive<usize>) -> impl Strategy<Value = Board> {
    sizes
        .prop_flat_map(|size| {
            (
                Just(size),
                0..=100u32,
                prop::collection::vec(0..100u32, size * size),
            )
        })
        .prop_map(|(size, wall_percent, draws)| {
            Board::from_fn(size, |row, column| {
                if draws[row * size + column] < wall_percent {
                    Cell::Wall
                } else {
                    Cell::Empty
                }
            })
        })
}

/// The empty cells of `board` and, for each, the bit set of empty cells it
/// attacks, found by walking the four directions until a wall or the edge.
fn attack_sets(board: &Board) -> (Vec<(usize, usize)>, Vec<u64>) {
    let size = board.size();
    let empty: Vec<(usize, usize)> = (0..size * size)
        .map(|index| (index / size, index % size))
        .filter(|&(row, column)| board.is_empty_cell(row, column))
        .collect();
    assert!(empty.len() <= 64, "the oracles use one bit per empty cell");
    let bit_of = |row: usize, column: usize| empty.iter().position(|&cell| cell == (row, column));
    let attacks = empty
        .iter()
        .map(|&(row, column)| {
            let mut set = 0u64;
            for (row_step, column_step) in [(0isize, 1isize), (0, -1), (1, 0), (-1, 0)] {
                let (mut other_row, mut other_column) = (row as isize, column as isize);
                loop {
                    other_row += row_step;
                    other_column += column_step;
                    if other_row < 0 || other_column < 0 {
                        break;
                    }
                    match bit_of(other_row as usize, other_column as usize) {
                        Some(bit) => set |= 1 << bit,
                        None => break,
                    }
                }
            }
            set
        })
        .collect();
    (empty, attacks)
}

/// Oracle 1 (n <= 4): try every subset of empty cells, keep the largest in
/// which no rook attacks another.
fn max_rooks_by_every_subset(board: &Board) -> usize {
    let (empty, attacks) = attack_sets(board);
    assert!(empty.len() <= 16, "2^cells subsets: small boards only");
    (0u64..1 << empty.len())
        .filter(|&subset| {
            (0..empty.len()).all(|bit| subset & (1 << bit) == 0 || attacks[bit] & subset == 0)
        })
        .map(|subset| subset.count_ones() as usize)
        .max()
        .unwrap_or(0)
}

/// Oracle 2 (n <= 6): maximum independent set of the attack graph by
/// branching on the first available cell, taken or not. A cell nothing
/// available attacks is always taken, which keeps open boards fast.
fn max_rooks_by_branching(board: &Board) -> usize {
    fn branch(available: u64, attacks: &[u64]) -> usize {
        if available == 0 {
            return 0;
        }
        let cell = available.trailing_zeros() as usize;
        let without_cell = available & !(1 << cell);
        let taken = 1 + branch(without_cell & !attacks[cell], attacks);
        if attacks[cell] & available == 0 {
            return taken;
        }
        taken.max(branch(without_cell, attacks))
    }
    let (empty, attacks) = attack_sets(board);
    let available = if empty.len() == 64 {
        u64::MAX
    } else {
        (1 << empty.len()) - 1
    };
    branch(available, &attacks)
}

/// Oracle 3 (any n): Kuhn's simple augmenting-path matching between row and
/// column segments, with segments labelled by a flood along each line.
fn max_rooks_by_kuhn(board: &Board) -> usize {
    let size = board.size();
    let mut row_label = vec![vec![usize::MAX; size]; size];
    let mut column_label = vec![vec![usize::MAX; size]; size];
    let (mut row_segments, mut column_segments) = (0, 0);
    for row in 0..size {
        for column in 0..size {
            if !board.is_empty_cell(row, column) {
                continue;
            }
            if row_label[row][column] == usize::MAX {
                let mut other = column;
                while board.is_empty_cell(row, other) {
                    row_label[row][other] = row_segments;
                    other += 1;
                }
                row_segments += 1;
            }
            if column_label[row][column] == usize::MAX {
                let mut other = row;
                while board.is_empty_cell(other, column) {
                    column_label[other][column] = column_segments;
                    other += 1;
                }
                column_segments += 1;
            }
        }
    }
    let mut edges = vec![Vec::new(); row_segments];
    for row in 0..size {
        for column in 0..size {
            if board.is_empty_cell(row, column) {
                edges[row_label[row][column]].push(column_label[row][column]);
            }
        }
    }
    fn augment(
        left: usize,
        edges: &[Vec<usize>],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for &right in &edges[left] {
            if !seen[right] {
                seen[right] = true;
                if owner[right].is_none_or(|other| augment(other, edges, seen, owner)) {
                    owner[right] = Some(left);
                    return true;
                }
            }
        }
        false
    }
    let mut owner = vec![None; column_segments];
    (0..row_segments)
        .filter(|&left| augment(left, &edges, &mut vec![false; column_segments], &mut owner))
        .count()
}

#[expect(
    clippy::expect_used,
    reason = "a test helper: its boards are written in the test"
)]
fn board(rows: &[&str]) -> Board {
    Board::from_fn(rows.len(), |row, column| {
        Cell::from_char(rows[row].as_bytes()[column] as char).expect("test boards use . and X")
    })
}

#[test]
fn oracles_agree_on_the_sample() {
    let boards = [
        board(&[".X..", "....", "XX..", "...."]),
        board(&["XX", ".X"]),
        board(&[".X.", "X.X", ".X."]),
        board(&["...", ".XX", ".XX"]),
        board(&["....", "....", "....", "...."]),
    ];
    for oracle in [
        max_rooks_by_every_subset,
        max_rooks_by_branching,
        max_rooks_by_kuhn,
    ] {
        let answers: Vec<_> = boards.iter().map(oracle).collect();
        assert_eq!(answers, [5, 1, 5, 2, 4]);
    }
}

#[test]
fn sample_answer_file_is_the_solver_output() {
    let input = include_str!("../../problems/rooks/tests/sample-1.in");
    let answer = include_str!("../../problems/rooks/tests/sample-1.ans");
    assert_eq!(rooks().validate(input, None), Ok(()));
    assert_eq!(rooks().solve(input).as_deref(), Ok(answer));
}

/// Every board of side 1 to 3 (2 + 16 + 512 of them): the solver and the
/// backtracking agree with the exhaustive oracle.
#[test]
fn every_board_up_to_three_by_three_matches_every_subset_oracle() {
    for size in 1..=3 {
        for walls in 0u32..1 << (size * size) {
            let board = Board::from_fn(size, |row, column| {
                if walls & (1 << (row * size + column)) != 0 {
                    Cell::Wall
                } else {
                    Cell::Empty
                }
            });
            let expected = max_rooks_by_every_subset(&board);
            assert_eq!(max_rooks(&board), expected, "{board}");
            assert_eq!(max_rooks_backtracking(&board), expected, "{board}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// On the original sizes (n <= 4) the matching equals the best of all
    /// subsets of empty cells.
    #[test]
    fn solver_matches_every_subset_oracle_on_original_sizes(board in board_strategy(1..=4)) {
        prop_assert_eq!(max_rooks(&board), max_rooks_by_every_subset(&board), "{}", board);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    /// On medium boards (5 <= n <= 6) the matching, the library's backtracking
    /// and an independent-set branching all agree.
    #[test]
    fn solver_matches_branching_oracle_on_medium_boards(board in board_strategy(5..=6)) {
        let expected = max_rooks_by_branching(&board);
        prop_assert_eq!(max_rooks(&board), expected, "{}", board);
        prop_assert_eq!(max_rooks_backtracking(&board), expected, "{}", board);
    }

    /// On larger boards (n <= 40) Hopcroft-Karp equals Kuhn's matching.
    #[test]
    fn solver_matches_kuhn_oracle_on_larger_boards(board in board_strategy(7..=40)) {
        prop_assert_eq!(max_rooks(&board), max_rooks_by_kuhn(&board), "{}", board);
    }

    /// parse(print(boards)) == boards, in both layouts.
    #[test]
    fn printed_input_parses_back(boards in prop::collection::vec(board_strategy(1..=12), 1..5)) {
        let text = print_input(&boards);
        prop_assert_eq!(&parse_input(&text, Layout::Strict, MAX_SIZE).unwrap(), &boards);
        prop_assert_eq!(&parse_input(&text, Layout::Lenient, MAX_SIZE).unwrap(), &boards);
    }
}

/// Hopcroft-Karp equals Kuhn's matching on whole `large` inputs, 100 x 100
/// boards included.
#[test]
fn solver_matches_kuhn_oracle_on_large_profile_inputs() {
    for index in 0..4 {
        let text = rooks()
            .generate("large", &mut test_rng(11, "rooks", "large", index))
            .unwrap();
        let boards = parse_input(&text, Layout::Strict, MAX_SIZE).unwrap();
        let expected: String = boards
            .iter()
            .map(|board| format!("{}\n", max_rooks_by_kuhn(board)))
            .collect();
        assert_eq!(solve(&boards), expected);
    }
}

/// Every generated input passes the validator of its own profile, prints back
/// to the same bytes, and `small` inputs also keep the original constraint.
#[test]
fn generated_inputs_pass_their_profile_validator() {
    for profile in PROFILES {
        let count = if profile.name == "large" { 30 } else { 300 };
        for seed in 0..3 {
            for index in 0..count {
                let mut rng = test_rng(seed, "rooks", profile.name, index);
                let text = rooks().generate(profile.name, &mut rng).unwrap();
                assert_eq!(
                    rooks().validate(&text, Some(profile.name)),
                    Ok(()),
                    "{}:\n{text}",
                    profile.name
                );
                if profile.name == "small" {
                    assert_eq!(rooks().validate(&text, None), Ok(()), "{text}");
                }
                let boards = parse_input(&text, Layout::Strict, MAX_SIZE).unwrap();
                assert_eq!(print_input(&boards), text);
            }
        }
    }
}

/// The `large` profile really goes beyond the original constraint, or it
/// would not test anything the original does not.
#[test]
fn large_profile_inputs_break_the_original_constraint() {
    let text = rooks()
        .generate("large", &mut test_rng(1, "rooks", "large", 0))
        .unwrap();
    let error = rooks().validate(&text, None).unwrap_err();
    assert!(error.to_string().contains("is outside 1..=4"), "{error}");
}

/// The output's tokens joined by separators picked by `choices`.
fn reshape(output: &str, choices: &[usize]) -> String {
    const SEPARATORS: [&str; 5] = [" ", "\t", "\r\n", "\n\n", "  \n "];
    let mut reshaped = String::from(SEPARATORS[choices[0] % SEPARATORS.len()]);
    for (index, token) in output.split_whitespace().enumerate() {
        reshaped.push_str(token);
        reshaped.push_str(SEPARATORS[choices[(index + 1) % choices.len()] % SEPARATORS.len()]);
    }
    reshaped.trim_end_matches('\n').to_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The checker accepts the reference output and any whitespace-reshaped
    /// rendering of it, with or without the answer file, and rejects one
    /// board's count off by one as WA naming that board and both values.
    #[test]
    fn checker_accepts_reference_and_rejects_off_by_one(
        seed in any::<u64>(),
        profile_draw in 0..4u32,
        choices in prop::collection::vec(0usize..5, 1..8),
        pick in any::<prop::sample::Index>(),
        up in any::<bool>(),
    ) {
        // One case in four is `large`: its 100 x 100 boards are slow in debug builds.
        let profile = if profile_draw == 0 { "large" } else { "small" };
        let input = rooks().generate(profile, &mut test_rng(seed, "rooks", profile, 0)).unwrap();
        let reference = rooks().solve(&input).unwrap();
        let options = CheckOptions::default();
        let counts: Vec<i64> = reference.split_whitespace().map(|token| token.parse().unwrap()).collect();
        let accepted = CheckOutcome::accepted(if counts.len() == 1 { "1 board".to_owned() } else { format!("{} boards", counts.len()) });
        for answer in [None, Some(reference.as_str())] {
            prop_assert_eq!(&rooks().check(&input, &reference, answer, &options).unwrap(), &accepted);
            let reshaped = reshape(&reference, &choices);
            prop_assert_eq!(&rooks().check(&input, &reshaped, answer, &options).unwrap(), &accepted);

            let board = pick.index(counts.len());
            let mut mutated = counts.clone();
            mutated[board] += if up || mutated[board] == 0 { 1 } else { -1 };
            let output: String = mutated.iter().map(|count| format!("{count}\n")).collect();
            let outcome = rooks().check(&input, &output, answer, &options).unwrap();
            prop_assert_eq!(outcome.verdict, Verdict::WrongAnswer);
            prop_assert_eq!(
                outcome.reason,
                format!("board {}: expected {}, got {}", board + 1, counts[board], mutated[board])
            );
        }
    }
}

/// A stale answer file (one count off) is the judge's fault, whatever the
/// contestant wrote.
#[test]
fn checker_fails_on_stale_answer_file() {
    let input = include_str!("../../problems/rooks/tests/sample-1.in");
    let failure = rooks()
        .check(
            input,
            "5 1 5 2 4",
            Some("5 1 5 2 5"),
            &CheckOptions::default(),
        )
        .unwrap_err();
    assert_eq!(
        failure.to_string(),
        "the answer file disagrees with the reference solver: board 5: the answer says 5, \
         the reference finds 4 (stale answer file?)"
    );
}

#[test]
fn solver_reads_leniently_and_validator_strictly() {
    let input = "2\r\n.X\r\n\r\nX.  \r\n0";
    assert_eq!(rooks().solve(input).as_deref(), Ok("2\n"));
    assert!(rooks().validate(input, None).is_err());
}
