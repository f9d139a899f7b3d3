use super::time_limit::derived_time_limit_ms;

#[test]
fn derives_the_time_limit_as_problemtools_does() {
    assert_eq!(derived_time_limit_ms(12, 5.0, 1000), 1000);
    assert_eq!(derived_time_limit_ms(300, 5.0, 1000), 2000);
    assert_eq!(derived_time_limit_ms(400, 5.0, 1000), 2000);
    assert_eq!(derived_time_limit_ms(401, 5.0, 1000), 3000);
    // `time_resolution: 0.25` rounds to quarter seconds.
    assert_eq!(derived_time_limit_ms(101, 2.0, 250), 250);
    assert_eq!(derived_time_limit_ms(130, 2.0, 250), 500);
}
