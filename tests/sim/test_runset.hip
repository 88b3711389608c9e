/* The runnable set behind every schedule (sim/schedule.h): its counts, its n-th, lowest and
 * highest member against a plain bit-by-bit reference, over random sequences of additions
 * (one thread, or a wave's span) and removals at every block size, so every schedule picks
 * exactly the threads it picked when nth dropped the lowest bits one at a time and the
 * searches started at word 0 (a found failure's schedule replays). */
#include <vector>
#include "sim/schedule.h"
#include "sim_test_util.h"

using rf_sim::RunSet;

/* The reference: the n-th set member in ascending order, -1 past the end. */
static int naive_nth(const std::vector<bool> &in, unsigned n) {
  for (unsigned i = 0; i < in.size(); i++)
    if (in[i] && n-- == 0) return static_cast<int>(i);
  return -1;
}

static unsigned naive_count(const std::vector<bool> &in) {
  unsigned c = 0;
  for (bool b : in) c += b;
  return c;
}

/* Every n of one state: nth and count as the reference says; the lowest and the highest
 * member too (in-order's and reverse's picks, which move the set's search bounds). */
static bool agrees(RunSet &run, const std::vector<bool> &in) {
  std::vector<int> members;  // the reference's n-th member is members[n]
  for (unsigned i = 0; i < in.size(); i++)
    if (in[i]) members.push_back(static_cast<int>(i));
  if (run.count() != members.size()) return false;
  if (run.lowest() != (members.empty() ? -1 : members.front())) return false;
  if (run.highest() != (members.empty() ? -1 : members.back())) return false;
  for (unsigned n = 0; n < members.size(); n++) {
    if (run.nth(n) != members[n]) return false;
    // Both searches for the word (nth uses the vector one where it is built): the same word
    // and rank.
    unsigned rank = n, scan_rank = n;
    unsigned k = run.word_of(&rank), scan_k = run.word_of_scan(&scan_rank);
    if (k != scan_k || rank != scan_rank || k * 64 + rank > static_cast<unsigned>(members[n]))
      return false;
  }
  return run.nth(static_cast<unsigned>(members.size())) == -1;
}

/* ranked: as under the random schedule, whose draws use the prefix sums (sim/schedule.h). */
static void sizes_and_sequences(bool ranked) {
  rf_sim::Prng rng;
  rng.seed(12345);
  // Growing, then shrinking: a smaller block after a larger one leaves counts in the words
  // past its own (an abandoned block's), which no search may count.
  const unsigned sizes[] = {1,   2,   31,   32,   63,   64,   65,  127, 128, 255,
                            256, 700, 1000, 1023, 1024, 700, 65, 31,  1};
  for (unsigned size : sizes) {
    static RunSet run;  // as in the engine: set_size per launch, fill per block
    run.set_size(size, ranked);
    run.fill(size);
    std::vector<bool> in(size, true);
    bool ok = agrees(run, in);
    for (int step = 0; step < 3000 && ok; step++) {
      // Half of the phases drain the set from the bottom or the top, as in-order and reverse
      // phases do, with random re-additions below and above what is left.
      unsigned i = rng.below(size), phase = static_cast<unsigned>(step / 97) % 4;
      if (phase == 1 && rng.below(4)) i = static_cast<unsigned>(run.lowest() < 0 ? 0 : run.lowest());
      if (phase == 3 && rng.below(4)) i = static_cast<unsigned>(run.highest() < 0 ? 0 : run.highest());
      // Additions of members and removals of non-members happen (a wave completing re-adds
      // lanes; the counts must not move then).
      if (rng.below(8) == 0) {  // a wave's lanes at once, some of them members already
        unsigned wave = rng.below(2) ? 32 : 64, first = i / wave * wave;
        unsigned n = size - first < wave ? size - first : wave;
        run.add_span(first, n);
        for (unsigned j = first; j < first + n; j++) in[j] = true;
      } else if (rng.below(2)) {
        run.add(i);
        in[i] = true;
      } else {
        run.remove(i);
        in[i] = false;
      }
      if (step % 97 == 0) {  // a new phase, as after a barrier
        run.fill(size);
        in.assign(size, true);
      }
      ok = agrees(run, in);
    }
    CHECK_MSG(ok, "block of %u threads%s: nth/count differ from the reference", size,
              ranked ? " (ranked)" : "");
  }
}

/* select_bit against the reference for every member of word w: the one the CPU chose and
 * both of its forms (the pdep one where the CPU has BMI2), so neither goes untested. */
static bool select_agrees(uint64_t w) {
  std::vector<bool> in(64);
  for (unsigned i = 0; i < 64; i++) in[i] = w >> i & 1;
  bool ok = true;
  for (unsigned n = 0; n < naive_count(in); n++) {
    int want = naive_nth(in, n);
    ok &= static_cast<int>(rf_sim::select_bit(w, n)) == want;
    ok &= static_cast<int>(rf_sim::select_bit_swar(w, n)) == want;
#if defined(__x86_64__)
    if (rf_sim::kSelectPdep) ok &= static_cast<int>(rf_sim::select_bit_pdep(w, n)) == want;
#endif
  }
  return ok;
}

/* Every byte value and position inside a word: the bit-select of dense, sparse and
 * single-bit words. */
static void select_in_word() {
  bool ok = true;
  const uint64_t words[] = {1, 0x8000000000000000ull, ~uint64_t{0}, 0x5555555555555555ull,
                            0xff00ff00ff00ff00ull, 0x0000000100000001ull, 0xfedcba9876543210ull};
  for (uint64_t w : words) ok &= select_agrees(w);
  for (unsigned b = 1; b < 256; b++)
    for (unsigned at = 0; at < 64; at += 8)
      ok &= select_agrees(uint64_t{b} << at | 1);  // a bit below too, so bytes before count
  CHECK(ok);
}

int main() {
  sizes_and_sequences(false);
  sizes_and_sequences(true);
  select_in_word();
  return rf_test_done();
}
