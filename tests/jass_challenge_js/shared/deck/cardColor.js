

export const CardColor = {
    HEARTS: 'HEARTS',
    DIAMONDS: 'DIAMONDS',
    CLUBS: 'CLUBS',
    SPADES: 'SPADES'
};