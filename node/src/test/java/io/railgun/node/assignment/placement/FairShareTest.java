package io.railgun.node.assignment.placement;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FairShareTest {
    /** Fills members in turn while they have room; returns what each took. */
    static int[] fill(FairShare share, int members, int demand) {
        int[] load = new int[members];
        int placed = 0;
        boolean progress = true;
        while (placed < demand && progress) {
            progress = false;
            for (int m = 0; m < members && placed < demand; m++) {
                if (share.hasRoom(m, load[m])) {
                    share.took(m, ++load[m]);
                    placed++;
                    progress = true;
                }
            }
        }
        return load;
    }

    @Test
    void equalBudgetsGiveTheFloorOrTheCeiling() {
        int max = Integer.MAX_VALUE;
        assertThat(fill(new FairShare(new int[] {max, max, max}, 10), 3, 10)).containsExactly(4, 3, 3);
        assertThat(fill(new FairShare(new int[] {max, max, max}, 9), 3, 9)).containsExactly(3, 3, 3);
    }

    @Test
    void theFirstToReachTheCeilingTakeItsSlots() {
        int max = Integer.MAX_VALUE;
        FairShare share = new FairShare(new int[] {max, max, max}, 10);
        int[] load = new int[3];
        // member 2 takes 4 first: the one ceiling slot is gone, the others stop at 3
        for (int i = 0; i < 4; i++) {
            assertThat(share.hasRoom(2, load[2])).isTrue();
            share.took(2, ++load[2]);
        }
        assertThat(share.hasRoom(2, load[2])).isFalse();
        load[0] = 3;
        assertThat(share.hasRoom(0, 3)).isFalse();
        assertThat(share.hasRoom(1, 2)).isTrue();
    }

    @Test
    void smallBudgetsAreFilledAndTheRestShareTheRemainder() {
        // demand 12, budgets 1, 2, 100, 100: level 5 (1 + 2 + 5 + 5 = 13 >= 12), one member at 5
        int[] load = fill(new FairShare(new int[] {1, 2, 100, 100}, 12), 4, 12);
        assertThat(load).containsExactly(1, 2, 5, 4);
    }

    @Test
    void whenTheBudgetsAreTooSmallEveryoneMayTakeItsWholeBudgetAndNoMore() {
        FairShare share = new FairShare(new int[] {2, 0, -3}, 10);
        assertThat(fill(share, 3, 10)).containsExactly(2, 0, 0);
        assertThat(share.underBudget(0, 1)).isTrue();
        assertThat(share.underBudget(0, 2)).isFalse();
        assertThat(share.underBudget(2, 0)).isFalse();
    }

    @Test
    void noDemandNoRoom() {
        assertThat(new FairShare(new int[] {5}, 0).hasRoom(0, 0)).isFalse();
    }
}
