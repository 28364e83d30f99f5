

export function create(gameMode, cardColor) {
    return {
        mode: gameMode,
        trumpfColor: cardColor
    };
}